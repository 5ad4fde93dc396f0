/**
 * A project's glossary (DESIGN §13), owned by project-service: terms with their rendering per
 * target locale, or "keep as is". The CLI puts the entries a batch uses into the prompt and checks
 * the model's answers against them; the dashboard and `tolk glossary import|export` edit them.
 */
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import { parseTargetLocale, type TargetLocaleResult } from '../locale.js';
import { epochMillis, jsonObject, queryInteger, text } from './fields.js';
import { hasControlCharacter } from './projects.js';

/** The most entries one project's glossary holds; a bigger import is refused whole. */
export const MAX_GLOSSARY_ENTRIES = 10_000;
/**
 * The most text one project's glossary holds, counted by glossaryEntryBytes. Real glossaries have
 * hundreds to a few thousand terms: 3,000 terms rendered in 30 locales at some 20 bytes a locale
 * code and rendering are 1.8 MB, and 10,000 terms in 20 locales (4.0 MB) still fit. The caps of
 * each field alone let one entry hold 600 kB and a glossary 6 GB, which no read, import or
 * prompt can carry.
 */
export const MAX_GLOSSARY_BYTES = 4 * 1024 * 1024;
export const MAX_GLOSSARY_TERM_LENGTH = 200;
export const MAX_GLOSSARY_NOTE_LENGTH = 1000;
export const MAX_GLOSSARY_TRANSLATION_LENGTH = 1000;
/** Locales one entry may have renderings for. */
export const MAX_GLOSSARY_LOCALES = 200;

/**
 * What one import (`PUT .../glossary`) may carry beyond its entries: checking a rendering takes
 * 2-3 µs however short it is, and a body of 8 MiB holds 800,000 one-letter renderings (2 s of
 * checks). 250,000 is 10,000 terms in 25 locales. A locale code new to the process costs 5-10 µs
 * more to check; real glossaries name their project's few dozen.
 */
export const MAX_GLOSSARY_IMPORT_RENDERINGS = 250_000;
export const MAX_GLOSSARY_IMPORT_LOCALES = 1000;

/** Entries on a page of `GET .../glossary` when `limit` is not given, and the most it may ask. */
export const DEFAULT_GLOSSARY_PAGE_SIZE = 100;
export const MAX_GLOSSARY_PAGE_SIZE = 1000;
/**
 * A page ends early once its entries hold this much text (glossaryEntryBytes), so that one page
 * stays small whatever its entries hold; it always has at least one entry.
 */
export const GLOSSARY_PAGE_BYTES = 512 * 1024;

/** UTF-8 length of a string, as Postgres' octet_length counts it. */
function utf8Bytes(value: string): number {
  return Buffer.byteLength(value, 'utf8');
}

/**
 * What an entry counts towards MAX_GLOSSARY_BYTES: the UTF-8 bytes of its text — term, note, and
 * each locale code and rendering. The flags and the JSON around them are not counted, so the
 * figure is the same however the entry is sent (JSON, CSV, escaped or not). project-service keeps
 * it per entry (`size_bytes`, with the same sum in SQL for entries stored before it was kept).
 */
export function glossaryEntryBytes(entry: {
  term: string;
  note: string | null;
  translations: Readonly<Record<string, string>>;
}): number {
  let bytes = utf8Bytes(entry.term) + (entry.note === null ? 0 : utf8Bytes(entry.note));
  for (const [locale, rendering] of Object.entries(entry.translations)) {
    bytes += utf8Bytes(locale) + utf8Bytes(rendering);
  }
  return bytes;
}

/**
 * What makes two terms one entry: equal ignoring case (and Unicode normalisation), whether or not
 * the entries are case sensitive. `caseSensitive` says how a term is found in source texts, not
 * which term it is: "Apple" and "apple" are one entry, so a glossary never holds two renderings
 * that both apply to one word.
 */
export function glossaryTermKey(term: string): string {
  return term.normalize('NFC').toLowerCase();
}

const term = text()
  .trim()
  .min(1, { error: 'must not be empty' })
  .max(MAX_GLOSSARY_TERM_LENGTH, {
    error: (issue) =>
      `must be at most ${MAX_GLOSSARY_TERM_LENGTH} characters (it has ${String(issue.input).trim().length})`,
  })
  .refine((value) => !hasControlCharacter(value), { error: 'must not contain control characters' });

const flag = z.boolean({ error: 'must be true or false' });

// Free text for the translator: line breaks and tabs welcome, NUL not. Blank means no note.
const note = z
  .string({ error: 'must be a string or null' })
  .trim()
  .max(MAX_GLOSSARY_NOTE_LENGTH, { error: `must be at most ${MAX_GLOSSARY_NOTE_LENGTH} characters` })
  .refine((value) => !value.includes('\u0000'), { error: 'must not contain NUL characters' })
  .nullable()
  .transform((value) => value || null);

const rendering = z
  .string({ error: 'must be a string' })
  .trim()
  .max(MAX_GLOSSARY_TRANSLATION_LENGTH, {
    error: `must be at most ${MAX_GLOSSARY_TRANSLATION_LENGTH} characters`,
  })
  .refine((value) => !hasControlCharacter(value), { error: 'must not contain control characters' });

/**
 * An import of 10,000 entries names the same few dozen locale codes 300,000 times, and
 * Intl.getCanonicalLocales is most of an entry's validation: reading each code once, such an
 * import (30 locales) is validated in 130-140 ms instead of 370 ms. Bounded, since a hostile
 * import may name thousands of distinct codes.
 */
const localeCodes = new LRUCache<string, TargetLocaleResult>({ max: 10 * MAX_GLOSSARY_IMPORT_LOCALES });

function parseGlossaryLocale(code: string): TargetLocaleResult {
  let parsed = localeCodes.get(code);
  if (parsed === undefined) {
    parsed = parseTargetLocale(code);
    localeCodes.set(code, parsed);
  }
  return parsed;
}

/**
 * Locale → rendering. Keys are target locale codes as a project's locales are (BCP 47, any case,
 * stored canonical: `pt-br` → `pt-BR`); a blank rendering means none for that locale.
 */
const translations = z
  .record(z.string(), rendering, { error: 'must be a JSON object of locale code → text' })
  .transform((map, ctx) => {
    const canonical: Record<string, string> = {};
    const spelledAs = new Map<string, string>();
    for (const [code, value] of Object.entries(map)) {
      const parsed = parseGlossaryLocale(code);
      if (!parsed.ok) {
        ctx.addIssue({ code: 'custom', path: [code], message: `locale code ${parsed.problem}`, input: code });
        continue;
      }
      const earlier = spelledAs.get(parsed.locale);
      if (earlier !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: [code],
          message: `is the same locale as ${JSON.stringify(earlier)} (${parsed.locale})`,
          input: code,
        });
        continue;
      }
      spelledAs.set(parsed.locale, code);
      if (value) canonical[parsed.locale] = value;
    }
    if (spelledAs.size > MAX_GLOSSARY_LOCALES) {
      ctx.addIssue({
        code: 'custom',
        message: `must have at most ${MAX_GLOSSARY_LOCALES} locales (it has ${spelledAs.size})`,
        input: map,
      });
    }
    return canonical;
  })
  // The transform's bound, for the document.
  .meta({ maxProperties: MAX_GLOSSARY_LOCALES });

function keepAsIsWithoutTranslations(entry: { keepAsIs?: boolean; translations?: Record<string, string> }) {
  return !(entry.keepAsIs === true && entry.translations && Object.keys(entry.translations).length > 0);
}

const KEEP_AS_IS_CONFLICT = {
  error: 'must be empty when keepAsIs is true (the term stays as it is in every locale)',
  path: ['translations'],
};

const entryShape = {
  term,
  caseSensitive: flag.default(false),
  keepAsIs: flag.default(false),
  note: note.optional().transform((value) => value ?? null),
  translations: translations.optional().transform((value) => value ?? {}),
};

/** One entry as created (POST) or given in an import (PUT). */
export const glossaryEntryInputSchema = jsonObject(entryShape).refine(
  keepAsIsWithoutTranslations,
  KEEP_AS_IS_CONFLICT,
);

// ---- requests ----

export const createGlossaryEntryRequestSchema = glossaryEntryInputSchema;

/** `PATCH .../glossary/{entryId}`: the fields given replace; `translations` replaces the whole map. */
export const updateGlossaryEntryRequestSchema = jsonObject({
  term: term.optional(),
  caseSensitive: flag.optional(),
  keepAsIs: flag.optional(),
  note: note.optional(),
  translations: translations.optional(),
})
  .refine((input) => Object.values(input).some((value) => value !== undefined), {
    error: 'must contain at least one of term, caseSensitive, keepAsIs, note, translations',
  })
  .refine(keepAsIsWithoutTranslations, KEEP_AS_IS_CONFLICT);

/**
 * `PUT .../glossary`: every entry of the glossary at once (an import). The entries themselves are
 * parsed one by one by project-service, so that a bad import of 10,000 entries is named in a few
 * lines rather than 10,000; this schema is the document's.
 */
export const replaceGlossaryRequestSchema = jsonObject({
  entries: z.array(glossaryEntryInputSchema).max(MAX_GLOSSARY_ENTRIES),
});

/** `PUT .../glossary?merge=true`: entries whose term exists replace it; the others stay. */
export const replaceGlossaryQuerySchema = z.strictObject({
  merge: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .optional()
    .transform((value) => value === 'true'),
});

/** The longest `cursor` of `GET .../glossary`: a term (200 characters) as nextCursor spells it. */
export const MAX_GLOSSARY_CURSOR_LENGTH = 2000;

/**
 * `GET .../glossary?limit=&cursor=`: one page of entries, in term order. Either parameter makes
 * the read paged; without both, the answer is every entry (as before paging: see the operation).
 */
export const glossaryQuerySchema = z.strictObject({
  limit: queryInteger(
    1,
    MAX_GLOSSARY_PAGE_SIZE,
    `a whole number from 1 to ${MAX_GLOSSARY_PAGE_SIZE}`,
  ).optional(),
  cursor: z
    .string({ error: 'must be the nextCursor of an earlier page' })
    .max(MAX_GLOSSARY_CURSOR_LENGTH, { error: 'must be the nextCursor of an earlier page' })
    .optional(),
});

// ---- responses ----

export const glossaryEntrySchema = z.strictObject({
  entryId: z.string(),
  term: z.string(),
  caseSensitive: z.boolean().meta({ description: 'Whether the term matches only as spelled' }),
  keepAsIs: z.boolean().meta({ description: 'The term stays untranslated in every locale' }),
  note: z.string().nullable(),
  translations: z.record(z.string(), z.string()).meta({
    description: 'Target locale (canonical BCP 47 code) → the rendering the translation must use',
  }),
  createdAt: epochMillis(),
  updatedAt: epochMillis(),
});

const glossaryTotal = z
  .number()
  .int()
  .nonnegative()
  .meta({
    description: `Entries of the whole glossary (at most ${MAX_GLOSSARY_ENTRIES.toLocaleString('en-US')})`,
  });
const glossaryBytes = z
  .number()
  .int()
  .nonnegative()
  .meta({
    description:
      'Text the whole glossary holds, in UTF-8 bytes of its terms, notes, locale codes and renderings ' +
      `(at most ${MAX_GLOSSARY_BYTES.toLocaleString('en-US')})`,
  });

/** A page of `GET .../glossary` (limit or cursor given). */
export const glossaryPageSchema = z.strictObject({
  entries: z
    .array(glossaryEntrySchema)
    .meta({ description: 'The entries of this page, ordered by term ignoring case' }),
  total: glossaryTotal,
  bytes: glossaryBytes,
  nextCursor: z.string().nullable().meta({
    description: 'Send it as `cursor` for the next page; null on the last page',
  }),
});

/**
 * The answer of `GET .../glossary`: a page, or without limit and cursor every entry and nothing
 * else (the answer clients written before paging read).
 */
export const glossaryResponseSchema = glossaryPageSchema.partial({
  total: true,
  bytes: true,
  nextCursor: true,
});

export const replaceGlossaryResponseSchema = z.strictObject({
  created: z.number().int().nonnegative().meta({ description: 'Entries with a term new to the glossary' }),
  updated: z.number().int().nonnegative().meta({ description: 'Existing entries that changed' }),
  unchanged: z.number().int().nonnegative(),
  deleted: z
    .number()
    .int()
    .nonnegative()
    .meta({ description: 'Entries the import left out (0 when merging)' }),
  total: glossaryTotal.meta({ description: 'Entries of the glossary after the import' }),
  bytes: glossaryBytes.meta({ description: 'Text the glossary holds after the import, in UTF-8 bytes' }),
});

export type GlossaryEntryInput = z.infer<typeof glossaryEntryInputSchema>;
export type GlossaryEntryChanges = z.infer<typeof updateGlossaryEntryRequestSchema>;
export type GlossaryEntry = z.infer<typeof glossaryEntrySchema>;
export type GlossaryResponse = z.infer<typeof glossaryResponseSchema>;
export type GlossaryPage = z.infer<typeof glossaryPageSchema>;
export type ReplaceGlossaryResponse = z.infer<typeof replaceGlossaryResponseSchema>;
