/**
 * `tolk translate --fix` (DESIGN §15, "Fixing is a choice"): which of a locale's translations go
 * back to the model because of their findings, each with the text it has now as the reference to
 * keep. Without `--fix` none does: a person's translation is never sent to the model for what it
 * says.
 *
 * The findings of a value the server has are the server's (the locale's `findings`, judged when
 * it was uploaded); a local value never uploaded is judged here by the rules `tolk check` judges
 * with, which take what a value says from the same function as the server.
 */
import type { KeyRuleMatcher } from '@tolk/contracts';
import type { ParsedSource, TargetKeys } from '@tolk/locale-file';
import { findProblems, type FindingKind } from '../check/find-problems.js';
import { isUnsyncedLocal } from '../files/sync-state.js';
import type { CompiledGlossary } from './glossary.js';

/** `--fix` fixes the keys with errors; `--fix=warnings` those with warnings too. */
export const FIX_LEVELS = ['errors', 'warnings'] as const;
export type FixLevel = (typeof FIX_LEVELS)[number];

/** A finding of one key's value, as the server or the local judgement gives it. */
export type ValueFinding = { key: string; severity: 'error' | 'warning'; message: string };

/** Check's findings that are not about what a value says: those are translate's own business. */
const NOT_ABOUT_THE_TEXT = new Set<FindingKind>(['missing', 'outdated', 'pending', 'extra']);

export type FixInput = {
  level: FixLevel;
  locale: string;
  sourceLocale: string;
  /** The server's source, as translate reads it. */
  source: ParsedSource;
  target: TargetKeys;
  /** The server's values of the locale. */
  server: ReadonlyMap<string, string>;
  /** The server's findings of its values (the locale's `findings`). */
  serverFindings: readonly ValueFinding[];
  /** The local target files' values. */
  local: ReadonlyMap<string, string> | undefined;
  /** Hashes of the values last synced (.tolk/state.json); undefined when there is no record. */
  synced: ReadonlyMap<string, string> | undefined;
  rules: KeyRuleMatcher;
  glossary: CompiledGlossary;
};

/**
 * The keys to fix, each with the text it has now (the reference the model keeps to) and what was
 * found in it, in the locale's key order.
 */
export function keysToFix(input: FixInput): Map<string, { text: string; findings: string[] }> {
  const { target, server, local, synced } = input;
  const wanted = (severity: 'error' | 'warning') => severity === 'error' || input.level === 'warnings';
  // A local value never uploaded is the person's newest text (with no sync record, only where
  // the server has none, as translate takes it): the server has not judged it.
  const current = new Map<string, string>();
  const unjudged = new Map<string, string>();
  for (const key of target.keys) {
    const mine = local?.get(key);
    const theirs = server.get(key);
    if (isUnsyncedLocal(mine, theirs, synced?.get(key)) && (synced !== undefined || theirs === undefined)) {
      current.set(key, mine);
      unjudged.set(key, mine);
    } else if (theirs !== undefined && theirs !== '') {
      current.set(key, theirs);
    }
  }
  const findings = new Map<string, string[]>();
  const add = (finding: ValueFinding) => {
    if (!wanted(finding.severity) || !current.has(finding.key)) return;
    const rule = input.rules.ruleOf(finding.key);
    if (rule === 'exclude' || rule === 'neverTranslate') return;
    findings.set(finding.key, [...(findings.get(finding.key) ?? []), finding.message]);
  };
  for (const finding of input.serverFindings) if (!unjudged.has(finding.key)) add(finding);
  for (const finding of judgeLocally(input, unjudged)) add(finding);
  const fixes = new Map<string, { text: string; findings: string[] }>();
  for (const key of target.keys) {
    const found = findings.get(key);
    if (found) fixes.set(key, { text: current.get(key)!, findings: found });
  }
  return fixes;
}

/** The findings of `values` by the rules of `tolk check` (those about the text only). */
function judgeLocally(input: FixInput, values: ReadonlyMap<string, string>): ValueFinding[] {
  if (values.size === 0) return [];
  const serverSource = new Map(input.source.keys.map((key, index) => [key, input.source.values[index]!]));
  return findProblems({
    locale: input.locale,
    sourceLocale: input.sourceLocale,
    source: input.source,
    target: input.target,
    local: values,
    serverSource,
    server: undefined,
    synced: undefined,
    rules: input.rules,
    glossary: input.glossary,
  })
    .filter(
      (finding): finding is typeof finding & ValueFinding =>
        !NOT_ABOUT_THE_TEXT.has(finding.kind) && finding.severity !== 'notice' && values.has(finding.key),
    )
    .map(({ key, severity, message }) => ({ key, severity, message }));
}
