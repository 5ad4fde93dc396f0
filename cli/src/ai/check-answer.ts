import {
  comparePluralFormPlaceholders,
  findIcuProblems,
  findPlaceholderMismatches,
  PLURAL_CATEGORIES,
} from '@tolk/locale-file';
import type { KeyProblem } from './errors.js';
import { answerKeys, stripCodeFence, type PluralGroupRequest } from './translation-prompt.js';

export type CheckedAnswer = {
  /** Keys whose translation passed every check; a plural group's forms only all together. */
  accepted: Map<string, string>;
  /** Keys that must be asked again, and keys answered that were not asked for. */
  problems: KeyProblem[];
  /**
   * The translations refused only by the glossary (a plural group's forms all together): what
   * translateBatch keeps after its last attempt. Absent when there are none.
   */
  withheld?: Map<string, string>;
};

/**
 * Checks a model's answer to a request for `requested` (key → source text) in `targetLocale`: the
 * answer must be a JSON object, and each requested key must map to a non-empty string that keeps
 * the ICU rules of its source for the target (it parses where the source does; plurals hold every
 * category of the target, DESIGN §11) and has the same placeholders, ICU arguments and tags as
 * its source: what the server checks on upload. Good keys are kept even when others fail,
 * so that only the bad ones are asked again. Keys answered that were not asked for are never
 * kept; they are reported but do not fail an answer on their own.
 *
 * The source forms of each group of `plurals` are among `requested`, but the answer holds the
 * target's forms instead (DESIGN §11): every one of them, by the rules above with the plural-form
 * placeholder rule (comparePluralFormPlaceholders), and no form of the group the target does not
 * use. A group is kept whole or not at all, so that a bad form asks the whole group again.
 */
export function checkAnswer(
  requested: ReadonlyMap<string, string>,
  answerText: string,
  targetLocale: string,
  plurals: readonly PluralGroupRequest[] = [],
  /** What is wrong with a translation by the project's glossary (DESIGN §13), if anything. */
  glossaryMiss?: (source: string, translation: string) => string | undefined,
): CheckedAnswer {
  const groupForms = new Set(plurals.flatMap((group) => group.sources));
  const plainKeys = [...requested.keys()].filter((key) => !groupForms.has(key));
  const expected = new Set(answerKeys(requested.keys(), plurals));
  const answer = parseAnswer(answerText);
  if (!answer.ok) {
    const message = `no usable answer: ${answer.detail}`;
    return {
      accepted: new Map(),
      problems: [...expected].map((key) => ({
        key,
        kind: 'unreadable-answer',
        detail: answer.detail,
        message,
      })),
    };
  }

  const problems: KeyProblem[] = [];
  const candidates = new Map<string, string>();
  const takeString = (key: string, sources: readonly string[], missing = 'missing from the answer') => {
    if (!answer.values.has(key)) {
      problems.push({ key, kind: 'missing', message: missing });
      return;
    }
    const value = answer.values.get(key);
    if (typeof value !== 'string') {
      const got = describe(value);
      problems.push({ key, kind: 'not-a-string', got, message: `answered with ${got}, not a string` });
    } else if (value.trim() === '' && sources.some((source) => source.trim() !== '')) {
      problems.push({ key, kind: 'empty', message: 'answered with an empty string' });
    } else {
      candidates.set(key, value);
    }
  };
  for (const key of plainKeys) takeString(key, [requested.get(key)!]);

  const keys = plainKeys.filter((key) => candidates.has(key));
  const sources = { keys, values: keys.map((key) => requested.get(key)!) };
  // ICU first, as on the server: a translation that does not parse also loses placeholders.
  for (const problem of findIcuProblems(sources, candidates, targetLocale)) {
    candidates.delete(problem.key);
    problems.push(problem);
  }
  const mismatches = findPlaceholderMismatches(sources, candidates);
  for (const { key, missing, unexpected } of mismatches) {
    candidates.delete(key);
    problems.push(placeholderProblem(key, missing, unexpected));
  }
  const withheld = new Map<string, string>();
  if (glossaryMiss) {
    for (const key of keys) {
      const translation = candidates.get(key);
      const message = translation === undefined ? undefined : glossaryMiss(requested.get(key)!, translation);
      if (translation === undefined || message === undefined) continue;
      candidates.delete(key);
      withheld.set(key, translation);
      problems.push({ key, kind: 'glossary', translation, message });
    }
  }

  const unusedForms = new Set<string>();
  for (const group of plurals) {
    const before = problems.length;
    problems.push(...checkGroup(group, requested, answer.values, targetLocale, takeString, candidates));
    for (const problem of problems.slice(before)) {
      if (problem.kind === 'unused-plural-form') unusedForms.add(problem.key);
    }
    if (glossaryMiss && problems.length === before) {
      // Each form against the source's form of its category, else its `other` (as for ICU).
      const other = requested.get(`${group.stem}_other`) ?? requested.get(group.sources.at(-1)!)!;
      for (const form of group.forms) {
        const translation = candidates.get(form.key)!;
        const source = requested.get(`${group.stem}_${form.category}`) ?? other;
        const message = glossaryMiss(source, translation);
        if (message !== undefined) problems.push({ key: form.key, kind: 'glossary', translation, message });
      }
      if (problems.length > before)
        for (const form of group.forms) withheld.set(form.key, candidates.get(form.key)!);
    }
    // A group is translated whole: one bad form, and every form is asked again.
    if (problems.length > before) for (const form of group.forms) candidates.delete(form.key);
  }

  for (const key of answer.values.keys()) {
    if (!expected.has(key) && !unusedForms.has(key))
      problems.push({ key, kind: 'unexpected-key', message: 'not asked for; ignored' });
  }
  return { accepted: candidates, problems, ...(withheld.size > 0 && { withheld }) };
}

/**
 * The problems of one plural group's forms in an answer: each target form present, a string,
 * holding the placeholders every source form shares (and none the source lacks), keeping the ICU
 * rules of the source's form of the same category, else of its `other` (the form i18next falls
 * back to; `item_few` has no source of its own); and the forms of the group the target does not
 * use, named.
 */
function checkGroup(
  group: PluralGroupRequest,
  requested: ReadonlyMap<string, string>,
  values: ReadonlyMap<string, unknown>,
  locale: string,
  takeString: (key: string, sources: readonly string[], missing: string) => void,
  candidates: Map<string, string>,
): KeyProblem[] {
  const sourceTexts = group.sources.map((key) => requested.get(key)!);
  const problems: KeyProblem[] = [];
  const categories = `${locale}${group.type === 'ordinal' ? ' ordinals' : ''}: ${group.forms.map((form) => form.category).join(', ')}`;
  for (const form of group.forms) {
    takeString(form.key, sourceTexts, `missing from the answer: the ${form.category} form (${categories})`);
  }
  const forms = group.forms.filter((form) => candidates.has(form.key));

  // As the server's upload check: a form's ICU source is the source's form of its category.
  const other = requested.get(`${group.stem}_other`) ?? sourceTexts.at(-1)!;
  const icuSource = {
    keys: forms.map((form) => form.key),
    values: forms.map((form) => requested.get(`${group.stem}_${form.category}`) ?? other),
  };
  const icuProblems = findIcuProblems(icuSource, candidates, locale);
  const broken = new Set(icuProblems.map((problem) => problem.key));
  problems.push(...icuProblems);
  for (const form of forms) {
    if (broken.has(form.key)) continue;
    const difference = comparePluralFormPlaceholders(sourceTexts, candidates.get(form.key)!);
    if (difference) problems.push(placeholderProblem(form.key, difference.missing, difference.unexpected));
  }

  const wanted = new Set(group.forms.map((form) => form.key));
  for (const category of PLURAL_CATEGORIES) {
    const key = `${group.stem}_${category}`;
    if (wanted.has(key) || !values.has(key)) continue;
    problems.push({
      key,
      kind: 'unused-plural-form',
      message: `a form ${locale} does not use (${categories})`,
    });
  }
  return problems;
}

function placeholderProblem(key: string, missing: string[], unexpected: string[]): KeyProblem {
  return { key, kind: 'placeholders', missing, unexpected, message: describeMismatch(missing, unexpected) };
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
