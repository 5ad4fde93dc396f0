/**
 * A project's glossary (DESIGN §13), owned by project-service: terms with their rendering per
 * target locale, or "keep as is". The CLI puts the entries a batch uses into the prompt and checks
 * the model's answers against them; the dashboard and `tolk glossary import|export` edit them.
 */
import { z } from 'zod';
import { parseTargetLocale } from '../locale.js';
import { epochMillis, jsonObject, text } from './fields.js';
import { hasControlCharacter } from './projects.js';

/** The most entries one project's glossary holds; a bigger import is refused whole. */
export const MAX_GLOSSARY_ENTRIES = 10_000;
export const MAX_GLOSSARY_TERM_LENGTH = 200;
export const MAX_GLOSSARY_NOTE_LENGTH = 1000;
export const MAX_GLOSSARY_TRANSLATION_LENGTH = 1000;
/** Locales one entry may have renderings for. */
export const MAX_GLOSSARY_LOCALES = 200;

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
 * Locale → rendering. Keys are target locale codes as a project's locales are (BCP 47, any case,
 * stored canonical: `pt-br` → `pt-BR`); a blank rendering means none for that locale.
 */
const translations = z
  .record(z.string(), rendering, { error: 'must be a JSON object of locale code → text' })
  .transform((map, ctx) => {
    const canonical: Record<string, string> = {};
    const spelledAs = new Map<string, string>();
    for (const [code, value] of Object.entries(map)) {
      const parsed = parseTargetLocale(code);
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
  });

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

export const glossaryResponseSchema = z.strictObject({
  entries: z.array(glossaryEntrySchema).meta({ description: 'Every entry, ordered by term ignoring case' }),
});

export const replaceGlossaryResponseSchema = glossaryResponseSchema.extend({
  created: z.number().int().nonnegative().meta({ description: 'Entries with a term new to the glossary' }),
  updated: z.number().int().nonnegative().meta({ description: 'Existing entries that changed' }),
  unchanged: z.number().int().nonnegative(),
  deleted: z
    .number()
    .int()
    .nonnegative()
    .meta({ description: 'Entries the import left out (0 when merging)' }),
});

export type GlossaryEntryInput = z.infer<typeof glossaryEntryInputSchema>;
export type GlossaryEntryChanges = z.infer<typeof updateGlossaryEntryRequestSchema>;
export type GlossaryEntry = z.infer<typeof glossaryEntrySchema>;
export type GlossaryResponse = z.infer<typeof glossaryResponseSchema>;
export type ReplaceGlossaryResponse = z.infer<typeof replaceGlossaryResponseSchema>;
