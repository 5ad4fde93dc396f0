/** A unit's target: whether a file holds translations into a locale, and which targets are kept. */
import type { Unit } from './parse.js';

/**
 * Whether a unit is read as a translation into `locale`: its file names `locale` as its target
 * language (its spelling, or the same language when the source language is another one).
 */
export function isTargetFile(unit: Unit, locale: string): boolean {
  const target = canonical(unit.languages.target);
  if (target === undefined) return false;
  if (target === locale) return true;
  const language = (tag: string | undefined) => tag?.split('-')[0]?.toLowerCase();
  const source = canonical(unit.languages.source);
  return language(target) === language(locale) && language(source) !== language(locale);
}

function canonical(tag: string | undefined): string | undefined {
  if (tag === undefined) return undefined;
  try {
    return Intl.getCanonicalLocales(tag.replaceAll('_', '-'))[0];
  } catch {
    return undefined;
  }
}

/** 1.2 target states that are no translation (yet); 2.0's `initial`. */
const NOT_TRANSLATED = new Set(['new', 'needs-translation', 'initial']);
/** What a reviewer settled: Tolk keeps these targets of the file on disk (1.2, 2.0). */
export const SETTLED = new Set(['final', 'signed-off']);

/** A unit's target as a value; undefined when it has none, an empty one, or one not translated. */
export function translationOf(unit: Unit): string | undefined {
  if (unit.targetValue === undefined || unit.targetValue === '') return undefined;
  return unit.state !== undefined && NOT_TRANSLATED.has(unit.state) ? undefined : unit.targetValue;
}

/**
 * The target of the file on disk that a unit keeps: a target a reviewer marked final or
 * signed-off, or any target of a unit not to be translated. The markup of its `<target>` and,
 * in 2.0, the `<segment>` start tag that holds its state.
 */
export function keptTarget(
  unit: Unit,
  on: Unit | undefined,
  text: string,
): { target: string; segment?: string } | undefined {
  if (!on?.target || unit.segments > 1 || on.segments > 1) return undefined;
  if (unit.translatable && !(on.translatable && on.state !== undefined && SETTLED.has(on.state)))
    return undefined;
  const target = text.slice(on.target.start, on.target.end);
  return on.segment ? { target, segment: text.slice(on.segment.start, on.segment.end) } : { target };
}
