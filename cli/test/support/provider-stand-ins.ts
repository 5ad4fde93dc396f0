import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TYPE, parse, type Location, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { isPluralCategory, pluralCategories } from '@tolk/locale-file';
import type { ProviderName } from '../../src/ai/index.js';

/**
 * Local stand-ins for AI providers, speaking their real wire protocols so that the AI SDK's own
 * provider packages talk to them unchanged: OpenAI Chat Completions (`POST /v1/chat/completions`,
 * also what DeepSeek, Mistral, OpenRouter and Ollama/vLLM/LM Studio speak), Anthropic Messages
 * (`POST /v1/messages`) and Google's `generateContent` (`POST /v1beta/models/{model}:generateContent`).
 *
 * Each records every request and answers like a translator by default: every value becomes
 * `[<target locale>] value`, which keeps all placeholders, with each ICU plural given exactly the
 * target's categories; an i18next plural group is answered with the forms the prompt asks for
 * (`[pl:few] {{count}} items`). A test scripts other answers with `script(...)` (one per request,
 * in order, then back to the default) or `answerAlways(...)`.
 */

export type RecordedRequest = {
  method: string;
  path: string;
  /** Lowercased names, as node gives them: `authorization`, `x-api-key`, `x-goog-api-key`... */
  headers: IncomingHttpHeaders;
  /** The parsed JSON body (undefined when it was not JSON). */
  body: unknown;
  /** The key → text object it was asked to translate: the last line of the last user message. */
  strings: Record<string, string> | undefined;
  /** The plural groups the prompt asks for: group → the keys to answer (the target's forms). */
  plurals: Record<string, string[]>;
  /**
   * The target locales asked for: one, or several in a multi-locale request (its plural groups
   * are then the first locale's; `pluralsByLocale` has each one's).
   */
  locales: string[];
  pluralsByLocale: Record<string, Record<string, string[]>>;
  /** What the stand-in answered. */
  reply: { status: number; content?: string; usage?: { inputTokens: number; outputTokens: number } };
};

/**
 * An answer built from what was asked (key → text, and the plural groups with the keys asked for
 * each), as the model's JSON; may be anything.
 */
export type TranslateFn = (
  asked: Record<string, string>,
  targetLocale: string,
  plurals: Record<string, string[]>,
) => unknown;

export type ScriptedAnswer =
  | { translate: TranslateFn }
  /** The model's raw text, e.g. malformed JSON. */
  | { content: string }
  /** An HTTP error in the provider's own error format. */
  | { status: number; type?: string; code?: string; message?: string; headers?: Record<string, string> };

export type ProviderStandIn = {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** What to give the SDK provider as `baseURL`: `<url>/v1`, or `<url>/v1beta` for Google. */
  readonly baseURL: string;
  readonly requests: RecordedRequest[];
  /** The key → text objects asked for, one per request that carried one, in order. */
  stringsReceived(): Record<string, string>[];
  /** The plural groups asked for (group → keys to answer), one per request that carried strings. */
  pluralsReceived(): Record<string, string[]>[];
  /** Queues answers: the next requests get them in order, later ones the default again. */
  script(...answers: ScriptedAnswer[]): void;
  /** Replaces the default answer (undefined: back to the translator). */
  answerAlways(answer: ScriptedAnswer | undefined): void;
  close(): Promise<void>;
};

/**
 * The default translator's value for `text`: `[<locale>] text`, where each ICU plural gets exactly
 * the categories of the target locale, in CLDR order after its exact selectors (`=0`), each with
 * the source's branch of that category or else its `other` branch, as a translator into a
 * language with other forms writes them (Polish few and many, French many, Japanese other only:
 * DESIGN §11). The rest of the text stays as it is, byte for byte.
 */
export function fakeTranslation(text: string, targetLocale: string): string {
  return `[${targetLocale}] ${withTargetPlurals(text, targetLocale)}`;
}

function withTargetPlurals(text: string, locale: string): string {
  let elements: MessageFormatElement[];
  try {
    elements = parse(text, { ignoreTag: true, captureLocation: true });
  } catch {
    return text;
  }
  return rewrite(text, 0, text.length, elements, locale);
}

/** `text` from `start` to `end`, whose elements are `nodes`, with every plural rewritten. */
function rewrite(
  text: string,
  start: number,
  end: number,
  nodes: MessageFormatElement[],
  locale: string,
): string {
  let out = '';
  let cursor = start;
  const branch = (option: { value: MessageFormatElement[]; location?: Location }) => {
    const { start: open, end: close } = option.location!;
    return `{${rewrite(text, open.offset + 1, close.offset - 1, option.value, locale)}}`;
  };
  for (const node of nodes) {
    if (node.type === TYPE.plural && node.location) {
      const [first, firstOption] = Object.entries(node.options)[0]!;
      let at = firstOption.location!.start.offset;
      while (at > 0 && /\s/.test(text[at - 1]!)) at--;
      at -= first.length;
      const exact = Object.keys(node.options).filter((selector) => selector.startsWith('='));
      const needed = pluralCategories(locale, node.pluralType === 'ordinal' ? 'ordinal' : 'cardinal');
      const options = [...exact, ...needed].map(
        (selector) => `${selector} ${branch(node.options[selector] ?? node.options['other']!)}`,
      );
      out += `${text.slice(cursor, at)}${options.join(' ')}}`;
      cursor = node.location.end.offset;
    } else if (node.type === TYPE.select) {
      for (const option of Object.values(node.options)) {
        out += text.slice(cursor, option.location!.start.offset) + branch(option);
        cursor = option.location!.end.offset;
      }
    }
  }
  return out + text.slice(cursor, end);
}

/**
 * The default answer: each plain key as fakeTranslation gives it, and each plural group the
 * prompt asks for with exactly the keys it lists, `[<locale>:<category>]` before the source's form
 * of that category, or its `other` form where the source has none (`[pl:few] {{count}} items`).
 */
const translateAll: TranslateFn = (asked, target, plurals) => {
  const forms = new Map<string, string>();
  const sourceForms = new Set<string>();
  for (const [stem, keys] of Object.entries(plurals)) {
    for (const key of Object.keys(asked)) if (isFormOf(stem, key)) sourceForms.add(key);
    for (const key of keys) {
      const category = key.slice(stem.length + 1);
      const text = Object.hasOwn(asked, key) ? asked[key] : asked[`${stem}_other`];
      forms.set(key, `[${target}:${category}] ${text ?? ''}`);
    }
  }
  // No prototype: a `__proto__` key is then an own property, as JSON.parse makes it.
  const answer = Object.create(null) as Record<string, string>;
  for (const [key, text] of Object.entries(asked)) {
    if (!sourceForms.has(key)) answer[key] = fakeTranslation(text, target);
  }
  for (const [key, value] of forms) answer[key] = value;
  return answer;
};

function isFormOf(stem: string, key: string): boolean {
  return key.startsWith(`${stem}_`) && isPluralCategory(key.slice(stem.length + 1));
}

/** Ready-made answers for `script`. */
export const answers = {
  translated: (): ScriptedAnswer => ({ translate: translateAll }),
  /** Translates, then removes the first placeholder (`{...}`, `%s`, a tag) from `key`'s value. */
  dropPlaceholder: (key: string): ScriptedAnswer => ({
    translate: (asked, target, plurals) =>
      edit(translateAll(asked, target, plurals), key, (value) =>
        typeof value === 'string' ? value.replace(/\{[^{}]*\}|%\d*\$?[sd]|<[^>]+>/, '') : value,
      ),
  }),
  /** Translates, then sets `key` to `value` (added if it was not asked for). */
  withValue: (key: string, value: unknown): ScriptedAnswer => ({
    translate: (asked, target, plurals) => edit(translateAll(asked, target, plurals), key, () => value),
  }),
  withoutKey: (key: string): ScriptedAnswer => ({
    translate: (asked, target, plurals) => {
      const answer = translateAll(asked, target, plurals) as Record<string, unknown>;
      delete answer[key];
      return answer;
    },
  }),
  /** Translates, then leaves out the `category` form of every plural group asked for. */
  withoutPluralForm: (category: string): ScriptedAnswer => ({
    translate: (asked, target, plurals) => {
      const answer = translateAll(asked, target, plurals) as Record<string, unknown>;
      for (const keys of Object.values(plurals))
        for (const key of keys) if (key.endsWith(`_${category}`)) delete answer[key];
      return answer;
    },
  }),
  malformed: (): ScriptedAnswer => ({ content: '{"greeting": "Hallo' }),
  rateLimited: (retryAfterSeconds = 0): ScriptedAnswer => ({
    status: 429,
    headers: { 'retry-after': String(retryAfterSeconds) },
  }),
  /** A 5xx; `retry-after-ms` keeps the SDK's backoff short in tests (real providers may send none). */
  serverError: (status = 500, retryAfterMs = 1): ScriptedAnswer => ({
    status,
    headers: { 'retry-after-ms': String(retryAfterMs) },
  }),
  /** Anthropic's 529. */
  overloaded: (): ScriptedAnswer => ({ status: 529, headers: { 'retry-after': '0' } }),
};

function edit(answer: unknown, key: string, change: (value: unknown) => unknown): unknown {
  const record = answer as Record<string, unknown>;
  Object.defineProperty(record, key, { value: change(record[key]), enumerable: true, writable: true });
  return record;
}

/** A fetch that sends a provider's real URLs to the stand-in instead (its path and query kept). */
export function redirectTo(standIn: ProviderStandIn): typeof fetch {
  return (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    return fetch(`${standIn.url}${url.pathname}${url.search}`, init);
  };
}

/** One provider's wire format. */
type Protocol = {
  basePath: string;
  handles(method: string, path: string): boolean;
  /** Text parts of the last user message. */
  userTexts(body: unknown): string[];
  success(body: unknown, content: string, usage: { inputTokens: number; outputTokens: number }): unknown;
  error(status: number, type: string, message: string, code: string | undefined): unknown;
  errorType(status: number): string;
};

export function startOpenAIStandIn(): Promise<ProviderStandIn> {
  return startStandIn(openAIProtocol);
}

export function startAnthropicStandIn(): Promise<ProviderStandIn> {
  return startStandIn(anthropicProtocol);
}

export function startGoogleStandIn(): Promise<ProviderStandIn> {
  return startStandIn(googleProtocol);
}

/** The providers whose structured answers the AI tests run through, each with its stand-in. */
export const structuredProviders: { provider: ProviderName; start: () => Promise<ProviderStandIn> }[] = [
  { provider: 'openai', start: startOpenAIStandIn },
  { provider: 'anthropic', start: startAnthropicStandIn },
];

const openAIProtocol: Protocol = {
  basePath: '/v1',
  handles: (method, path) => method === 'POST' && path === '/v1/chat/completions',
  userTexts: (body) => textsOf(lastUserMessage(field(body, 'messages'))?.content),
  success: (body, content, usage) => ({
    id: `chatcmpl-${Math.random().toString(36).slice(2)}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: field(body, 'model'),
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content, refusal: null },
        logprobs: null,
        finish_reason: 'stop',
      },
    ],
    usage: {
      prompt_tokens: usage.inputTokens,
      completion_tokens: usage.outputTokens,
      total_tokens: usage.inputTokens + usage.outputTokens,
    },
  }),
  error: (_status, type, message, code) => ({ error: { message, type, param: null, code: code ?? null } }),
  errorType: (status) =>
    status === 429
      ? 'requests'
      : status === 401
        ? 'invalid_request_error'
        : status >= 500
          ? 'server_error'
          : 'invalid_request_error',
};

const anthropicProtocol: Protocol = {
  basePath: '/v1',
  handles: (method, path) => method === 'POST' && path === '/v1/messages',
  userTexts: (body) => textsOf(lastUserMessage(field(body, 'messages'))?.content),
  success: (body, content, usage) => {
    // Structured output is asked for either natively (output_config.format) or, for older
    // models, as a forced tool named "json" whose input is the answer.
    const tools = field(body, 'tools');
    const jsonTool = Array.isArray(tools) && tools.some((tool) => field(tool, 'name') === 'json');
    const input = jsonTool && !field(field(body, 'output_config'), 'format') ? tryParse(content) : undefined;
    return {
      id: `msg_${Math.random().toString(36).slice(2)}`,
      type: 'message',
      role: 'assistant',
      model: field(body, 'model'),
      content:
        input !== undefined
          ? [{ type: 'tool_use', id: 'toolu_standin', name: 'json', input }]
          : [{ type: 'text', text: content }],
      stop_reason: input !== undefined ? 'tool_use' : 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: usage.inputTokens, output_tokens: usage.outputTokens },
    };
  },
  error: (_status, type, message) => ({ type: 'error', error: { type, message } }),
  errorType: (status) =>
    ({
      400: 'invalid_request_error',
      401: 'authentication_error',
      404: 'not_found_error',
      429: 'rate_limit_error',
    })[status] ?? (status === 529 ? 'overloaded_error' : 'api_error'),
};

const googleProtocol: Protocol = {
  basePath: '/v1beta',
  handles: (method, path) => method === 'POST' && /^\/v1beta\/models\/[^/]+:generateContent$/.test(path),
  userTexts: (body) => {
    const contents = field(body, 'contents');
    const user = Array.isArray(contents)
      ? contents.filter((c) => field(c, 'role') === 'user').at(-1)
      : undefined;
    const parts = field(user, 'parts');
    return Array.isArray(parts)
      ? parts.map((p) => field(p, 'text')).filter((t) => typeof t === 'string')
      : [];
  },
  success: (_body, content, usage) => ({
    candidates: [{ content: { role: 'model', parts: [{ text: content }] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: {
      promptTokenCount: usage.inputTokens,
      candidatesTokenCount: usage.outputTokens,
      totalTokenCount: usage.inputTokens + usage.outputTokens,
    },
  }),
  error: (status, type, message) => ({ error: { code: status, message, status: type } }),
  errorType: (status) =>
    status === 429 ? 'RESOURCE_EXHAUSTED' : status >= 500 ? 'INTERNAL' : 'INVALID_ARGUMENT',
};

async function startStandIn(protocol: Protocol): Promise<ProviderStandIn> {
  const requests: RecordedRequest[] = [];
  const queue: ScriptedAnswer[] = [];
  let fallback: ScriptedAnswer = answers.translated();

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      res.writeHead(500).end(String(error));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const body = tryParse(raw);
    const path = (req.url ?? '/').split('?')[0]!;
    const method = req.method ?? 'GET';
    const texts = protocol.userTexts(body);
    const asked = askedOf(texts.join('\n'));
    const { strings, locales, pluralsByLocale } = asked;
    const plurals = pluralsByLocale[locales[0]!]!;
    const recorded: RecordedRequest = {
      method,
      path,
      headers: req.headers,
      body,
      strings,
      plurals,
      locales,
      pluralsByLocale,
      reply: { status: 0 },
    };
    requests.push(recorded);

    const respond = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
      recorded.reply.status = status;
      res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(payload));
    };
    if (!protocol.handles(method, path)) {
      respond(404, protocol.error(404, protocol.errorType(404), `No route ${method} ${path}`, undefined));
      return;
    }
    if (field(body, 'stream') === true) {
      respond(400, protocol.error(400, protocol.errorType(400), 'The stand-in does not stream', undefined));
      return;
    }

    const answer = queue.shift() ?? fallback;
    if ('status' in answer) {
      const type = answer.type ?? protocol.errorType(answer.status);
      const message = answer.message ?? `Scripted ${answer.status} from the stand-in`;
      respond(answer.status, protocol.error(answer.status, type, message, answer.code), answer.headers);
      return;
    }
    // A multi-locale request is answered with one object per locale, each as one locale's answer.
    const answerFor = (locale: string) =>
      'content' in answer
        ? undefined
        : asked.byId(answer.translate(strings ?? {}, locale, pluralsByLocale[locale]!));
    const content =
      'content' in answer
        ? answer.content
        : JSON.stringify(
            locales.length === 1
              ? answerFor(locales[0]!)
              : Object.fromEntries(locales.map((locale) => [locale, answerFor(locale)])),
          );
    const usage = { inputTokens: Math.ceil(raw.length / 4), outputTokens: Math.ceil(content.length / 4) };
    recorded.reply = { status: 200, content, usage };
    respond(200, protocol.success(body, content, usage));
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    baseURL: `${url}${protocol.basePath}`,
    requests,
    stringsReceived: () => requests.flatMap((r) => (r.strings ? [r.strings] : [])),
    pluralsReceived: () => requests.flatMap((r) => (r.strings ? [r.plurals] : [])),
    script: (...answers) => queue.push(...answers),
    answerAlways: (answer) => {
      fallback = answer ?? answers.translated();
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * What a prompt asks for, read as a model reads it: the last line's texts (key path → "<id> <rest
 * of the key>" → text, or a plural group's object of category → text) as key → text; the target
 * locales (`Target locale: de`, or `Target locales: de, fr` in a multi-locale request); for each
 * locale, its plural groups' form keys to answer (the JSON line after the line that starts with
 * "Plural groups": id → categories; in a multi-locale request, the one in the locale's
 * `For <locale>:` part); and `byId`, which turns an answer by keys into the model's answer by ids.
 * A key or form that was not asked for stays as it is. JSON.parse keeps a `__proto__` key as an
 * own property.
 */
function askedOf(text: string): {
  strings: Record<string, string> | undefined;
  locales: string[];
  pluralsByLocale: Record<string, Record<string, string[]>>;
  byId: (answer: unknown) => unknown;
} {
  const lines = text.split('\n');
  const several = /^Target locales: (.+)$/m.exec(text)?.[1]?.split(', ');
  const locales = several ?? [/Target locale: (\S+)/.exec(text)?.[1] ?? 'xx'];
  const parsed = tryParse(lines.at(-1) ?? '');
  const plain = new Map<string, string>();
  const stems = new Map<string, string>();
  const strings = Object.create(null) as Record<string, string>;
  const isRecord = (value: unknown): value is Record<string, unknown> =>
    typeof value === 'object' && value !== null && !Array.isArray(value);
  if (!isRecord(parsed) || !Object.values(parsed).every(isRecord))
    return {
      strings: undefined,
      locales,
      pluralsByLocale: Object.fromEntries(locales.map((locale) => [locale, {}])),
      byId: (answer) => answer,
    };
  for (const [path, group] of Object.entries(parsed)) {
    for (const [name, value] of Object.entries(group as Record<string, unknown>)) {
      const space = name.indexOf(' ');
      const id = name.slice(0, space);
      const rest = name.slice(space + 1);
      const key = path === '' ? rest : `${path}.${rest}`;
      if (typeof value === 'string') {
        strings[key] = value;
        plain.set(key, id);
      } else if (isRecord(value)) {
        stems.set(id, key);
        for (const [category, form] of Object.entries(value)) strings[`${key}_${category}`] = String(form);
      }
    }
  }
  /** The plural groups of the lines from `start` to `end`. */
  const pluralsIn = (start: number, end: number) => {
    const at = lines.findIndex((line, i) => i >= start && i < end && line.startsWith('Plural groups'));
    const groups = at === -1 ? undefined : tryParse(lines[at + 1] ?? '');
    const plurals: Record<string, string[]> = {};
    if (isRecord(groups)) {
      for (const [id, categories] of Object.entries(groups)) {
        const stem = stems.get(id);
        if (stem !== undefined && Array.isArray(categories))
          plurals[stem] = categories.map((category) => `${stem}_${String(category)}`);
      }
    }
    return plurals;
  };
  const pluralsByLocale: Record<string, Record<string, string[]>> = {};
  for (const locale of locales) {
    if (!several) {
      pluralsByLocale[locale] = pluralsIn(0, lines.length);
      continue;
    }
    const start = lines.indexOf(`For ${locale}:`);
    const end = lines.findIndex(
      (line, i) => i > start && (/^For \S+:$/.test(line) || line.startsWith('Translate these texts')),
    );
    pluralsByLocale[locale] = start === -1 ? {} : pluralsIn(start, end);
  }
  const byId = (answer: unknown) => {
    if (!isRecord(answer)) return answer;
    const encoded = Object.create(null) as Record<string, unknown>;
    const put = (name: string, value: unknown) =>
      Object.defineProperty(encoded, name, { value, enumerable: true, writable: true, configurable: true });
    for (const [key, value] of Object.entries(answer)) {
      const stem = [...stems].find(([, s]) => isFormOf(s, key));
      if (plain.has(key)) put(plain.get(key)!, value);
      else if (stem) {
        const forms = (encoded[stem[0]] as Record<string, unknown> | undefined) ?? {};
        forms[key.slice(stem[1].length + 1)] = value;
        put(stem[0], forms);
      } else put(key, value);
    }
    return encoded;
  };
  return { strings, locales, pluralsByLocale, byId };
}

function lastUserMessage(messages: unknown): { content?: unknown } | undefined {
  if (!Array.isArray(messages)) return undefined;
  return messages.filter((m) => field(m, 'role') === 'user').at(-1) as { content?: unknown } | undefined;
}

/** Text of a message's content: a string, or the text parts of an array. */
function textsOf(content: unknown): string[] {
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  return content.flatMap((part) => {
    const text = field(part, 'text');
    return field(part, 'type') === 'text' && typeof text === 'string' ? [text] : [];
  });
}

function field(value: unknown, name: string): unknown {
  if (typeof value !== 'object' || value === null || !Object.hasOwn(value, name)) return undefined;
  return (value as Record<string, unknown>)[name];
}
