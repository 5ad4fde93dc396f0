import { rebuildTranslation, sourceTextOf, type ParsedSource, type TargetKeys } from '@tolk/locale-file';
import type { KeyRuleMatcher } from '@tolk/contracts';
import { hashValue } from '../files/sync-state.js';

export type MergeInput = {
  source: ParsedSource;
  /** The target locale: its `@@locale` where the source has one (ARB). */
  locale: string;
  /** The target locale's keys (targetKeys of the source): each plural group as the locale's forms. */
  target: TargetKeys;
  /** What the server holds for the locale. */
  server: ReadonlyMap<string, string>;
  /** The local target file, when there is one. */
  local: ReadonlyMap<string, string> | undefined;
  /** The model's checked translations of this run. */
  translated: ReadonlyMap<string, string>;
  /** Keys that were to be translated and were not: no older value of theirs may be uploaded as current. */
  failed: ReadonlySet<string>;
  /**
   * A person's texts kept as they are, whatever their findings: the keys `translate --fix` asked
   * to fix and got no answer that passed every rule for (DESIGN §15: never lost).
   */
  keep?: ReadonlyMap<string, string>;
  /**
   * Hashes of the values last synced with the server (.tolk/state.json), when known: a local value
   * that is what was last synced is no local work, and a newer server value wins over it.
   */
  synced?: ReadonlyMap<string, string>;
  /** The project's key rules (DESIGN §13): excluded keys are left out, keys never translated get the source text. */
  rules?: KeyRuleMatcher;
};

export type MergeResult = {
  /** The target document in the source's nesting and key order. */
  document: Record<string, unknown>;
  keyCount: number;
  /** How many keys have this run's value (a new translation, a local one the server lacks) over the server's. */
  ownKeys: number;
};

/**
 * The target file to write and upload: for each source key, in the source's nesting and key
 * order, the new translation; else the local file's value (the developer's file wins over the
 * server for keys not retranslated, so hand edits survive), unless it is the value last synced
 * and the server's has changed since (`synced`); else the server's. Keys of a failed
 * batch are left out, so a stale value is never uploaded as made from the current source; keys
 * the source no longer has are dropped. A local value is a person's whatever it says (placeholders
 * lost included): kept, and stored by the server with its findings (DESIGN §15). A source with `@@locale`
 * (ARB) gives the file `"@@locale": "<target>"` in the same place; no other metadata or annotation.
 * The keys are the target locale's (DESIGN §11): each i18next plural group is written as the
 * locale's forms in CLDR order at the group's place, so forms it does not use (`item_two` in
 * Polish, left by hand or by an older run) are dropped.
 */
export function mergeTranslations(input: MergeInput): MergeResult {
  const { source, locale, target, server, local, translated, failed, synced, rules } = input;
  let keyCount = 0;
  let ownKeys = 0;
  const document = rebuildTranslation(
    source,
    (key) => {
      const value = valueOf(key);
      if (value !== undefined && value !== '') keyCount++;
      return value === '' ? undefined : value;
    },
    { locale, target },
  );
  return { document, keyCount, ownKeys };

  function valueOf(key: string): string | undefined {
    const rule = rules?.ruleOf(key);
    if (rule === 'exclude') return undefined;
    if (rule === 'neverTranslate') return sourceTextOf(source, target.byKey.get(key)!);
    const fresh = translated.get(key);
    if (fresh !== undefined) {
      ownKeys++;
      return fresh;
    }
    const kept = input.keep?.get(key);
    if (kept !== undefined) {
      if (kept !== server.get(key)) ownKeys++;
      return kept;
    }
    if (failed.has(key)) return undefined;
    const mine = local?.get(key);
    const theirs = server.get(key);
    const stale = synced !== undefined && theirs !== undefined && synced.get(key) === hashValue(mine ?? '');
    // A person's value is kept whatever it says: the server stores it with its findings (DESIGN §15).
    if (mine !== undefined && mine !== '' && !stale) {
      if (mine !== theirs) ownKeys++;
      return mine;
    }
    return theirs;
  }
}

/** Flattened key → value of a parsed locale document. */
export function valuesOf(parsed: {
  keys: readonly string[];
  values: readonly string[];
}): Map<string, string> {
  return new Map(parsed.keys.map((key, index) => [key, parsed.values[index]!]));
}
