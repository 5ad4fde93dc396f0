import { comparePlaceholders, rebuildTranslation, type ParsedSource } from '@tolk/locale-file';

export type MergeInput = {
  source: ParsedSource;
  /** The target locale: its `@@locale` where the source has one (ARB). */
  locale: string;
  /** What the server holds for the locale. */
  server: ReadonlyMap<string, string>;
  /** The local target file, when there is one. */
  local: ReadonlyMap<string, string> | undefined;
  /** The model's checked translations of this run. */
  translated: ReadonlyMap<string, string>;
  /** Keys that were to be translated and were not: no older value of theirs may be uploaded as current. */
  failed: ReadonlySet<string>;
};

export type MergeResult = {
  /** The target document in the source's nesting and key order. */
  document: Record<string, unknown>;
  keyCount: number;
  /** Local values left out because their placeholders differ from the source's. */
  rejectedLocal: string[];
};

/**
 * The target file to write and upload: for each source key, in the source's nesting and key
 * order, the new translation; else the local file's value (the developer's file wins over the
 * server for keys not retranslated, so hand edits survive); else the server's. Keys of a failed
 * batch are left out, so a stale value is never uploaded as made from the current source; keys
 * the source no longer has are dropped. Local values whose placeholders differ from the source
 * are left out too (the server would refuse the whole upload for them). A source with `@@locale`
 * (ARB) gives the file `"@@locale": "<target>"` in the same place; no other metadata or annotation.
 */
export function mergeTranslations(input: MergeInput): MergeResult {
  const { source, locale, server, local, translated, failed } = input;
  const sourceValue = valuesOf(source);
  const rejectedLocal: string[] = [];
  let keyCount = 0;
  const document = rebuildTranslation(
    source,
    (key) => {
      const value = valueOf(key);
      if (value !== undefined && value !== '') keyCount++;
      return value === '' ? undefined : value;
    },
    { locale },
  );
  return { document, keyCount, rejectedLocal };

  function valueOf(key: string): string | undefined {
    const fresh = translated.get(key);
    if (fresh !== undefined) return fresh;
    if (failed.has(key)) return undefined;
    const mine = local?.get(key);
    if (mine !== undefined && mine !== '') {
      if (comparePlaceholders(sourceValue.get(key)!, mine) === undefined) return mine;
      rejectedLocal.push(key);
    }
    return server.get(key);
  }
}

/** Flattened key → value of a parsed locale document. */
export function valuesOf(parsed: {
  keys: readonly string[];
  values: readonly string[];
}): Map<string, string> {
  return new Map(parsed.keys.map((key, index) => [key, parsed.values[index]!]));
}
