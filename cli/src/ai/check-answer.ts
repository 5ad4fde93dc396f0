import { findIcuProblems, findPlaceholderMismatches } from '@tolk/locale-file';
import type { KeyProblem } from './errors.js';

export type CheckedAnswer = {
  /** Keys whose translation passed every check. */
  accepted: Map<string, string>;
  /** Keys that must be asked again, and keys answered that were not asked for. */
  problems: KeyProblem[];
};

/**
 * Checks a model's answer to a request for `requested` (key → source text) in `targetLocale`: the
 * answer must be a JSON object, and each requested key must map to a non-empty string that keeps
 * the ICU rules of its source for the target (it parses where the source does; plurals hold every
 * category of the target, DESIGN §11) and has the same placeholders, ICU arguments and tags as
 * its source: what the server checks on upload. Good keys are kept even when others fail,
 * so that only the bad ones are asked again. Keys answered that were not asked for are never
 * kept; they are reported but do not fail an answer on their own.
 */
export function checkAnswer(
  requested: ReadonlyMap<string, string>,
  answerText: string,
  targetLocale: string,
): CheckedAnswer {
  const answer = parseAnswer(answerText);
  if (!answer.ok) {
    const message = `no usable answer: ${answer.detail}`;
    return {
      accepted: new Map(),
      problems: [...requested.keys()].map((key) => ({
        key,
        kind: 'unreadable-answer',
        detail: answer.detail,
        message,
      })),
    };
  }

  const problems: KeyProblem[] = [];
  const candidates = new Map<string, string>();
  for (const [key, source] of requested) {
    if (!answer.values.has(key)) {
      problems.push({ key, kind: 'missing', message: 'missing from the answer' });
      continue;
    }
    const value = answer.values.get(key);
    if (typeof value !== 'string') {
      const got = describe(value);
      problems.push({ key, kind: 'not-a-string', got, message: `answered with ${got}, not a string` });
    } else if (value.trim() === '' && source.trim() !== '') {
      problems.push({ key, kind: 'empty', message: 'answered with an empty string' });
    } else {
      candidates.set(key, value);
    }
  }

  const keys = [...candidates.keys()];
  const sources = { keys, values: keys.map((key) => requested.get(key)!) };
  // ICU first, as on the server: a translation that does not parse also loses placeholders.
  for (const problem of findIcuProblems(sources, candidates, targetLocale)) {
    candidates.delete(problem.key);
    problems.push(problem);
  }
  const mismatches = findPlaceholderMismatches(sources, candidates);
  for (const { key, missing, unexpected } of mismatches) {
    candidates.delete(key);
    problems.push({
      key,
      kind: 'placeholders',
      missing,
      unexpected,
      message: describeMismatch(missing, unexpected),
    });
  }

  for (const key of answer.values.keys()) {
    if (!requested.has(key))
      problems.push({ key, kind: 'unexpected-key', message: 'not asked for; ignored' });
  }
  return { accepted: candidates, problems };
}

type ParsedAnswer = { ok: true; values: Map<string, unknown> } | { ok: false; detail: string };

/**
 * JSON.parse, not the SDK's parser: that one rejects any object with a `__proto__` key, which
 * is a legal message key here; JSON.parse makes it an own property and Object.entries reads it
 * back. A JSON-mode model may still wrap its answer in a Markdown code fence, which is dropped.
 */
function parseAnswer(text: string): ParsedAnswer {
  const json = stripCodeFence(text.trim());
  if (json === '') return { ok: false, detail: 'the answer was empty' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch (error) {
    return { ok: false, detail: `the answer was not JSON (${(error as Error).message})` };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { ok: false, detail: `the answer was ${describe(parsed)}, not a JSON object` };
  }
  return { ok: true, values: new Map(Object.entries(parsed)) };
}

function stripCodeFence(text: string): string {
  const fenced = /^```[\w-]*\s*\n([\s\S]*?)\n?```$/.exec(text);
  return fenced ? fenced[1]!.trim() : text;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

function describeMismatch(missing: string[], unexpected: string[]): string {
  const parts: string[] = [];
  if (missing.length > 0) parts.push(`lost ${missing.join(' ')}`);
  if (unexpected.length > 0) parts.push(`added ${unexpected.join(' ')}`);
  return `placeholders differ from the source: ${parts.join('; ')}`;
}
