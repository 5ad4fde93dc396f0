import { ValidationError } from '@tolk/errors';
import {
  checkInSlices,
  comparePluralFormPlaceholders,
  forEachInSlices,
  judgedSourceOf,
  judgeTranslations,
  type Finding,
  type FlatEntries,
  type TargetKeys,
} from '@tolk/locale-file';
import { NAMED_KEYS, nameKeys } from './name-keys.js';
import type { ClaimedKeys } from './provenance.js';

/** An upload judged against the source version it was made from (DESIGN §15). */
export type JudgedUpload = {
  /** The upload's entries of keys the locale has, in upload order. */
  kept: { keys: string[]; values: string[] };
  /** Keys the locale does not have for that version (unknown keys, plural forms it does not use). */
  ignored: string[];
  /** The findings of the people's values, in the order of the locale's keys. */
  findings: Finding[];
};

/** The keys of a source version as a set, built in time slices. */
export async function sourceKeySet(source: FlatEntries): Promise<ReadonlySet<string>> {
  const keys = new Set<string>();
  await forEachInSlices(source.keys.length, (i) => keys.add(source.keys[i]!));
  return keys;
}

/**
 * Judges an upload's values against their source values for `locale` (lenient in, strict out):
 * a key the locale does not have is ignored and named; a value the upload claims as the model's
 * or the memory's (`claimed`) is held to every rule (DESIGN §11), and any of them that breaks one
 * refuses the whole upload (a ValidationError naming them; nothing is stored); every other value
 * is a person's, kept whatever it says, with its findings. An empty value is no translation and
 * is not judged. Every loop runs in time slices: 200,000 keys take seconds to parse.
 */
export async function judgeUpload(
  upload: { keys: string[]; values: string[] },
  source: FlatEntries & { version: number },
  options: { locale: string; sourceLocale: string; target: TargetKeys | undefined; claimed: ClaimedKeys },
): Promise<JudgedUpload> {
  const { locale, target, claimed } = options;
  const known = target?.byKey ?? (await sourceKeySet(source));
  const kept: JudgedUpload['kept'] = { keys: [], values: [] };
  const ignored: string[] = [];
  // By key, once (matching by position would not survive slices).
  const values = new Map<string, string>();
  await forEachInSlices(upload.keys.length, (i) => {
    const key = upload.keys[i]!;
    const value = upload.values[i]!;
    if (!known.has(key)) {
      ignored.push(key);
      return;
    }
    kept.keys.push(key);
    kept.values.push(value);
    if (value !== '') values.set(key, value);
  });
  // A chunk of keys is bounded by the characters both sides hold.
  const judged = judgedSourceOf(source, target);
  const charactersOf = (i: number) => judged.values[i]!.length + (values.get(judged.keys[i]!)?.length ?? 0);
  const judgeOptions = {
    locale,
    sourceLocale: options.sourceLocale,
    target,
    byModel: (k: string) => claimed.has(k),
  };
  const findings = await checkInSlices(judged.keys.length, charactersOf, (range) =>
    judgeTranslations(source, values, judgeOptions, range),
  );
  const refused = claimed.size > 0 ? findings.filter((finding) => claimed.has(finding.key)) : [];
  if (refused.length > 0) throw refusalOf(refused, { source, target, locale, values });
  return { kept, ignored, findings };
}

/**
 * What refuses an upload whose model or memory values break the rules: the ICU rules first (a
 * message that does not parse loses its placeholders too, and the parser's error says better why),
 * then placeholders and tags, as before translations of people were taken with findings.
 */
function refusalOf(
  refused: readonly Finding[],
  context: {
    source: FlatEntries;
    target: TargetKeys | undefined;
    locale: string;
    values: ReadonlyMap<string, string>;
  },
): ValidationError {
  const icu = refused.filter((finding) => finding.kind === 'icu' || finding.kind === 'plural');
  if (icu.length > 0) {
    const named = icu.slice(0, NAMED_KEYS).map((f) => `${JSON.stringify(f.key)}: ${f.message}`);
    const more = icu.length > named.length ? `; and ${icu.length - named.length} more` : '';
    return new ValidationError(
      `ICU messages break the rules for ${context.locale} in ${icu.length} key(s): ${named.join('; ')}${more}; nothing was stored`,
    );
  }
  const keys = [...new Set(refused.map((finding) => finding.key))];
  const first = refused[0]!;
  const { source, target, values } = context;
  const sources = target
    ? target.byKey.get(first.key)!.sources.map((at) => source.values[at]!)
    : [source.values[source.keys.indexOf(first.key)]!];
  const difference = comparePluralFormPlaceholders(sources, values.get(first.key)!);
  const detail = difference
    ? [
        difference.missing.length > 0 ? `missing ${difference.missing.join(' ')}` : '',
        difference.unexpected.length > 0 ? `unexpected ${difference.unexpected.join(' ')}` : '',
      ]
        .filter(Boolean)
        .join(', ')
    : first.message;
  return new ValidationError(
    `Placeholders differ from the source in ${keys.length} key(s): ` +
      `${nameKeys(keys)} (${JSON.stringify(first.key)}: ${detail}); nothing was stored`,
  );
}
