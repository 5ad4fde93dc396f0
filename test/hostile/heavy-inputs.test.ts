/**
 * One member sending the heaviest inputs the published OpenAPI document allows — key-rule
 * patterns, glossary imports, translation values and memory lookups, generated from the
 * document's own schemas and limits (lists of `maxItems`, strings of `maxLength`, built of the
 * shapes that have made matchers, parsers and checks slow elsewhere) and some just past them —
 * must not make anyone else wait: every service runs in this one process, as in `npm start`'s
 * embedded mode, so work that holds the event loop holds every user. Meanwhile every answer is
 * below 500 and the envelope when an error, and what an answer acknowledges is what is stored.
 *
 * fast-check generates the inputs from a fixed seed (FUZZ_SEED overrides it), all of them before
 * anything is measured: building megabytes of text in this process would be a stall of its own.
 */
import { performance } from 'node:perf_hooks';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument, type OpenApiDocument } from '../../gateway/src/openapi/openapi-document.js';
import { worstValue, type WorstShape } from '../../bench/big-value-documents.js';
import { startSystem, type System } from '../e2e/system.js';
import {
  glossaryBodies,
  isEnvelope,
  json,
  limit,
  repeated,
  resolve,
  sampled,
  schemaAt,
  sizeUpTo,
  type JsonSchema,
} from './openapi-inputs.js';
import { localeReadsAndSourceWrites, victimP99 } from './victim-p99.js';

// Inputs of each kind (PER_KIND of openapi-inputs): each lane sends its own one after the other, over and over.
const VICTIM_CALLS = 150;
/** Past this a call counts as failed; two of them put p99 of 150 calls or more over a second anyway. */
const CALL_TIMEOUT_MS = 2000;

/**
 * Glob patterns of the shapes that make matchers backtrack or automata blow up: stars between
 * letters, nested braces, classes, `**` runs, alternations, wildcards after a star.
 */
function heavyPattern(length: fc.Arbitrary<number>): fc.Arbitrary<string> {
  const shaped = fc
    .tuple(fc.constantFrom('*a', '*[a-c]', '**.a.', '?', '@(a|aa)', '*.', '{a,b}', 'a*b?'), length)
    .map(([unit, size]) => repeated(unit, size));
  const nestedBraces = length.map((size) => {
    const depth = Math.floor((size - 1) / 4);
    return `${'{a,'.repeat(depth)}x${'}'.repeat(depth)}`;
  });
  const starThenWildcards = length.map((size) => `*a${'?'.repeat(Math.max(0, size - 2))}`);
  return fc.oneof(shaped, nestedBraces, starThenWildcards);
}

function keyRulesBodies(document: OpenApiDocument) {
  const maxItems = limit(
    schemaAt(document, 'UpdateProjectRequest', 'settings', 'keyRules', 'exclude'),
    'maxItems',
  );
  const maxLength = limit(
    schemaAt(document, 'UpdateProjectRequest', 'settings', 'keyRules', 'exclude', '[]'),
    'maxLength',
  );
  // A list of one pattern repeated is what costs most; a few others make the patterns differ.
  const list = (count: fc.Arbitrary<number>, patterns: fc.Arbitrary<string>) =>
    fc
      .tuple(count, patterns, fc.array(patterns, { maxLength: 3 }))
      .map(([size, pattern, others]) => [
        ...others.slice(0, size),
        ...Array.from({ length: Math.max(0, size - others.length) }, () => pattern),
      ]);
  const within = list(sizeUpTo(maxItems), heavyPattern(sizeUpTo(maxLength)));
  // One list with a pattern too many or too long, or with token soup, most of it no glob at all.
  const soup = fc
    .array(
      fc.constantFrom('*', '**', '?', 'a', '.', '{', ',', '}', '[a-z]', '[!a]', '@(', '|', ')', '\\', '!('),
      {
        minLength: 1,
        maxLength,
      },
    )
    .map((tokens) => tokens.join('').slice(0, maxLength));
  const past = fc.oneof(
    list(fc.constant(maxItems + 1), heavyPattern(sizeUpTo(maxLength))),
    list(sizeUpTo(maxItems), heavyPattern(fc.constant(maxLength + 1))),
    list(sizeUpTo(maxItems), soup),
  );
  const bodies = (exclude: fc.Arbitrary<string[]>) =>
    fc
      .record({ humanOnly: within, neverTranslate: within, exclude })
      .map((keyRules) => ({ settings: { keyRules } }));
  return sampled(bodies(within), bodies(past));
}

/** The opening braces a value may hold, as the document states them in words. */
function bracesLimit(schema: JsonSchema): number {
  const said = [schema, ...(schema.anyOf ?? [])]
    .map((option) => /At most ([\d,]+) opening braces/.exec(option.description ?? '')?.[1])
    .find((found) => found !== undefined);
  if (said === undefined) throw new Error(`the document states no brace limit for ${JSON.stringify(schema)}`);
  return Number(said.replaceAll(',', ''));
}

/**
 * The attacker's source keys translated, each value as long as a value may be: long text keeping
 * the source's placeholder and plural, or the shapes that cost the checks most at the document's
 * length and brace limits (a plural of as many branches as the braces allow, selects nested as deep,
 * as many `{name}`), stored with their findings; and past the limits, or of those shapes past the
 * brace limit (placeholders, selects nested hundreds deep, braces), refused.
 */
function translationBodies(document: OpenApiDocument, source: Record<string, string>) {
  const value = schemaAt(document, 'LocaleFile', '*');
  const maxLength = limit(value, 'maxLength');
  const maxBraces = bracesLimit(value);
  const keys = Object.keys(source);
  const valueOf = (key: string, shape: string, length: number): string => {
    const plural = source[key]!.includes('plural');
    switch (shape) {
      case 'placeholders':
        return repeated('{name} ', length);
      case 'nested': {
        const depth = 300;
        return `${'{s, select, a {'.repeat(depth)}${repeated('z', length - depth * 26)}${'} other {o}}'.repeat(depth)}`;
      }
      case 'braces':
        return repeated('{', length);
      case 'worst plural':
      case 'worst nested':
      case 'worst placeholders':
        return worstValue(shape.slice('worst '.length) as WorstShape, 'Übersetzung', {
          length,
          braces: maxBraces,
        });
      default: {
        const half = Math.floor(length / 2) - 24;
        return plural
          ? `{count, plural, one {# ${repeated('Datei ', half)}} other {# ${repeated('Dateien', half)}}}`
          : `{name} ${repeated('Übersetzung ', length - 7)}`;
      }
    }
  };
  // A shape for each key: one body holds several.
  const body = (shape: fc.Arbitrary<string>, length: fc.Arbitrary<number>) =>
    fc
      .tuple(fc.array(shape, { minLength: keys.length, maxLength: keys.length }), length)
      .map(([forms, size]) => Object.fromEntries(keys.map((key, i) => [key, valueOf(key, forms[i]!, size)])));
  return sampled(
    body(fc.constantFrom('text', 'worst plural', 'worst nested', 'worst placeholders'), sizeUpTo(maxLength)),
    fc.oneof(
      body(fc.constant('text'), fc.constant(maxLength + 1)),
      body(fc.constantFrom('placeholders', 'nested', 'braces'), sizeUpTo(maxLength)),
    ),
  );
}

function memoryBodies(document: OpenApiDocument) {
  const texts = schemaAt(document, 'MemoryLookupRequest', 'texts');
  const maxTexts = limit(texts, 'maxItems');
  const textLength = limit(schemaAt(document, 'MemoryLookupRequest', 'texts', '[]'), 'maxLength');
  const lookup = (count: number, length: number, near?: number) => ({
    texts: Array.from(
      { length: count },
      (_, i) => `${i} ${repeated('Hello {name} ', length - String(i).length - 1)}`,
    ),
    ...(near !== undefined && { near }),
  });
  // How many texts a lookup with near matches may ask: the schema's `then` branch.
  const request = resolve({ $ref: '#/components/schemas/MemoryLookupRequest' }, document) as JsonSchema & {
    then?: { properties?: { texts?: JsonSchema } };
  };
  const nearTexts = limit(request.then?.properties?.texts ?? {}, 'maxItems');
  return sampled(
    fc.constantFrom(
      lookup(nearTexts, textLength, 5),
      lookup(maxTexts, 200),
      lookup(maxTexts / 2, textLength / 5),
    ),
    fc.constantFrom(
      lookup(nearTexts + 1, textLength, 5),
      lookup(maxTexts + 1, 20),
      lookup(10, textLength + 1),
    ),
  );
}

type Sent = { what: string; status: number; text: string; ms: number; etag: string | null };

let system: System;
beforeAll(async () => {
  system = await startSystem({
    sources: true,
    gatewayEnv: { RATE_LIMIT_PER_USER: '1000000', RATE_LIMIT_PER_IP: '1000000' },
  });
});
afterAll(async () => {
  await system?.close();
});

async function projectWithGerman(token: string, name: string, source: Record<string, string>) {
  const created = await system.call('POST', '/v1/projects', token, { name, sourceLocale: 'en' });
  expect(created.status).toBe(201);
  const projectId = created.body.projectId as string;
  expect(
    (await system.call('POST', `/v1/projects/${projectId}/locales`, token, { locale: 'de' })).status,
  ).toBe(201);
  expect((await system.call('PUT', `/v1/projects/${projectId}/source`, token, source)).status).toBe(200);
  return projectId;
}

describe('one member sending the heaviest inputs the OpenAPI document allows', () => {
  it('when key rules, glossary imports, translations and memory lookups are generated from the document, then another user’s p99 stays under 1 s, no answer is 5xx, and what is acknowledged is stored', async () => {
    const document = buildOpenApiDocument();
    const attacker = await system.signUp();
    const victim = await system.signUp();
    // Keys the patterns are matched against: long runs of `a`, dotted paths, plural messages.
    const attackSource: Record<string, string> = {};
    for (let i = 0; i < 40; i++) attackSource[`${'a'.repeat(400)}${i}`] = `Text {name} ${i}`;
    for (let i = 0; i < 40; i++)
      attackSource[`a.${'a.'.repeat(100)}k${i}`] = `{count, plural, one {# file} other {# files}}`;
    // Key rules in a project of their own: a change of rules changes the revision of its
    // translations (and drops excluded keys), which the translations lane reads back.
    const ruledProject = await projectWithGerman(attacker.token, 'Ruled', attackSource);
    const attackProject = await projectWithGerman(attacker.token, 'Heavy', attackSource);
    const victimProject = await projectWithGerman(victim.token, 'Busy', { greeting: 'Hello {name}' });

    const ruled = `/v1/projects/${ruledProject}`;
    const base = `/v1/projects/${attackProject}`;
    const lanes: { what: string; method: string; path: string; bodies: Buffer[] }[] = [
      { what: 'key rules', method: 'PATCH', path: ruled, bodies: keyRulesBodies(document).map(json) },
      {
        what: 'glossary',
        method: 'PUT',
        path: `${base}/glossary`,
        bodies: glossaryBodies(document).map(json),
      },
      {
        what: 'translations',
        method: 'PUT',
        path: `${base}/locales/de/translations?sourceVersion=1`,
        bodies: translationBodies(document, attackSource).map(json),
      },
      {
        what: 'memory',
        method: 'POST',
        path: `${base}/locales/de/memory`,
        bodies: memoryBodies(document).map(json),
      },
    ];

    const sent: Sent[] = [];
    const problems: string[] = [];
    let stopping = false;
    const rounds = new Map<string, number>();
    const runLane = async (lane: (typeof lanes)[number]) => {
      for (let round = 0; !stopping; round++) {
        for (const body of lane.bodies) {
          if (stopping) return;
          const started = performance.now();
          const response = await fetch(`${system.base}${lane.path}`, {
            method: lane.method,
            headers: { authorization: `Bearer ${attacker.token}`, 'content-type': 'application/json' },
            body,
          });
          const text = await response.text();
          const answer = {
            what: lane.what,
            status: response.status,
            text,
            ms: performance.now() - started,
            etag: response.headers.get('etag'),
          };
          sent.push(answer);
          problems.push(...(await acknowledgedIsStored(lane.what, body, answer)));
        }
        rounds.set(lane.what, round + 1);
      }
    };

    /** Read back what a 2xx said it stored, before this lane sends anything else. */
    async function acknowledgedIsStored(what: string, body: Buffer, answer: Sent): Promise<string[]> {
      const where = `${what} answered ${answer.status}: ${answer.text.slice(0, 200)}`;
      if (answer.status >= 500) return [where];
      if (answer.status >= 400) return isEnvelope(answer.text) ? [] : [`${where}: not the error envelope`];
      const sentBody = JSON.parse(body.toString()) as Record<string, unknown>;
      if (what === 'key rules') {
        const project = await system.call('GET', ruled, attacker.token);
        const stored = (project.body.settings as { keyRules: unknown }).keyRules;
        return JSON.stringify(stored) ===
          JSON.stringify((sentBody['settings'] as { keyRules: unknown }).keyRules)
          ? []
          : [`${where}: the project's key rules are not what was acknowledged`];
      }
      if (what === 'glossary') {
        const page = await system.call('GET', `${base}/glossary?limit=1`, attacker.token);
        const entries = (sentBody['entries'] as unknown[]).length;
        return page.body.total === entries
          ? []
          : [`${where}: the glossary holds ${String(page.body.total)} entries, not ${entries}`];
      }
      if (what === 'translations') {
        const download = await fetch(`${system.base}${base}/locales/de/translations`, {
          headers: { authorization: `Bearer ${attacker.token}` },
        });
        await download.arrayBuffer();
        return download.headers.get('etag') === answer.etag
          ? []
          : [`${where}: the stored revision is not the acknowledged one`];
      }
      return [];
    }

    const attacks = Promise.all(lanes.map(runLane));
    let p99: number;
    try {
      await expect.poll(() => sent.length, { timeout: 60_000, interval: 20 }).toBeGreaterThan(0);
      p99 = await victimP99({
        calls: VICTIM_CALLS,
        timeoutMs: CALL_TIMEOUT_MS,
        // Beside at least one round of every lane.
        done: () => lanes.every((lane) => (rounds.get(lane.what) ?? 0) > 0),
        request: localeReadsAndSourceWrites(system.base, victim.token, victimProject),
      });
    } finally {
      stopping = true;
      await attacks;
    }
    expect(problems).toEqual([]);
    expect(p99).toBeLessThan(1000);
    // Each kind was both taken (within the limits) and refused (past them) at least once.
    const statuses = (what: string) =>
      new Set(sent.filter((answer) => answer.what === what).map((a) => a.status));
    for (const lane of lanes) {
      expect(
        [...statuses(lane.what)].some((status) => status < 300),
        `${lane.what}: something stored`,
      ).toBe(true);
      expect(
        [...statuses(lane.what)].some((status) => status >= 400),
        `${lane.what}: something refused`,
      ).toBe(true);
    }
  }, 240_000);
});
