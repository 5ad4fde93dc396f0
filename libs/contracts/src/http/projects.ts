/**
 * project-service's HTTP API: projects, their members and settings (the CLI's configuration),
 * and the internal answers the gateway and other services ask for. project-service validates
 * with these schemas; the gateway documents them.
 */
import { z } from 'zod';
import { keyRulesInputSchema } from '../key-rules.js';
import { AI_PROVIDERS } from '../providers.js';
import { emailAddress, epochMillis, jsonObject, sourceLocaleCode, text } from './fields.js';

/** C0 controls and DEL: never part of a name or a model; NUL is refused by the database itself. */
export function hasControlCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

function hasNul(value: string): boolean {
  return value.includes('\u0000');
}

const name = text()
  .trim()
  .min(1, { error: 'must not be empty' })
  .max(200, { error: 'must be at most 200 characters' })
  .refine((value) => !hasControlCharacter(value), { error: 'must not contain control characters' });

/** A nullable text setting: trimmed, and blank means not set (null). */
function optionalText(maxLength: number, forbidden: (value: string) => boolean) {
  return z
    .string({ error: 'must be a string or null' })
    .trim()
    .max(maxLength, { error: `must be at most ${maxLength} characters` })
    .refine((value) => !forbidden(value), { error: 'must not contain control characters' })
    .nullable()
    .transform((value) => value || null);
}

/** The CLI's configuration. Every field optional: what is left out stays as it is. */
const settingsShape = {
  provider: z
    .enum(AI_PROVIDERS, { error: `must be one of ${AI_PROVIDERS.join(', ')}, or null` })
    .nullable()
    .optional(),
  model: optionalText(200, hasControlCharacter).optional(),
  // Free text for the translator: line breaks and tabs are welcome, NUL is not.
  instructions: optionalText(10_000, hasNul).optional(),
  /** Whether keys `x_one`, `x_other` are read as i18next plural groups (DESIGN §11). */
  i18nextPlurals: z.boolean({ error: 'must be true or false' }).optional(),
  /** Glob patterns over keys (DESIGN §13); each list given replaces that list. */
  keyRules: keyRulesInputSchema.optional(),
  /** Whether a changed context annotation outdates its key's translations (DESIGN §13). */
  outdateOnContextChange: z.boolean({ error: 'must be true or false' }).optional(),
};

const SETTING_NAMES = Object.keys(settingsShape);

/**
 * Strict: a setting this service does not know (a typo, a setting of a newer version) is refused,
 * each named, rather than dropped while the answer says 200.
 */
const settings = z.strictObject(settingsShape, {
  error: (issue) => {
    if (issue.code !== 'unrecognized_keys') return 'must be a JSON object';
    const named = issue.keys.map((key) => `settings.${key}`).join(', ');
    const what = issue.keys.length === 1 ? 'is not a setting' : 'are not settings';
    return `${named} ${what}; the settings are ${SETTING_NAMES.join(', ')}`;
  },
});

const role = z.enum(['owner', 'member'], { error: 'must be owner or member' });

// ---- requests ----

export const createProjectRequestSchema = jsonObject({
  name,
  sourceLocale: sourceLocaleCode,
  settings: settings.optional(),
});

export const updateProjectRequestSchema = jsonObject({
  name: name.optional(),
  sourceLocale: sourceLocaleCode.optional(),
  settings: settings.optional(),
}).refine(
  (input) => input.name !== undefined || input.sourceLocale !== undefined || input.settings !== undefined,
  { error: 'must contain at least one of name, sourceLocale, settings' },
);

export const addMemberRequestSchema = jsonObject({
  email: emailAddress,
  role: role.default('member'),
});

/** `PATCH .../members/{userId}`: the member's new role. */
export const updateMemberRequestSchema = jsonObject({
  role: z.enum(['owner', 'member'], {
    error: (issue) => (issue.input === undefined ? 'is required' : 'must be owner or member'),
  }),
});

// ---- responses ----

const patterns = (description: string) => z.array(z.string()).meta({ description });

/** The project's key rules, every list present (empty by default). */
export const keyRulesSchema = z
  .strictObject({
    humanOnly: patterns(
      'Keys only people translate: the model is never asked for them; they stay missing until a person uploads one',
    ),
    neverTranslate: patterns(
      'Keys never translated (brand names, URLs): every target carries the source text, counted as translated',
    ),
    exclude: patterns('Keys left out of every target locale: not in target files, not counted, not missing'),
  })
  .meta({
    description:
      'Glob patterns over key paths (`.` separates segments; `*` matches within one segment, `**` any number of segments; ' +
      'whole key, case-sensitive; at most 200 patterns of 500 characters per list). A key several lists match follows exclude, then neverTranslate, then humanOnly',
  });

export const projectResponseSchema = z.strictObject({
  projectId: z.string(),
  name: z.string(),
  sourceLocale: z.string(),
  settings: z
    .strictObject({
      provider: z.string().nullable(),
      model: z.string().nullable(),
      instructions: z.string().nullable(),
      i18nextPlurals: z.boolean().meta({
        description:
          "Whether sibling keys item_one, item_other are read as an i18next plural group, translated into each target locale's own plural forms (default true)",
      }),
      keyRules: keyRulesSchema,
      outdateOnContextChange: z.boolean().meta({
        description:
          'Whether a changed context annotation ("@key": {"description", "maxLength"}) outdates the translations of its key in every target locale (default true)',
      }),
    })
    .meta({
      description:
        "The CLI's configuration: AI provider, model, instructions for the translator; how keys are read and which the model translates",
    }),
  /** The caller's role; null when the caller is a project API token (no member behind it). */
  role: role.nullable().meta({ description: "The caller's role; null for a project API token" }),
  createdAt: epochMillis(),
  updatedAt: epochMillis(),
});

export const projectListResponseSchema = z.strictObject({ projects: z.array(projectResponseSchema) });

export const memberResponseSchema = z.strictObject({
  userId: z.string(),
  /** Null only for an account that no longer exists. */
  email: z.string().nullable(),
  role,
});

export const memberListResponseSchema = z.strictObject({ members: z.array(memberResponseSchema) });

/** `GET /internal/projects/{projectId}/members/{userId}`: for the gateway's membership check. */
export const membershipResponseSchema = z.strictObject({
  projectId: z.string(),
  userId: z.string(),
  role,
});

/**
 * `GET /internal/projects/{projectId}`: what other services keep of a project (source-service:
 * its source locale; locale-service: also whether i18next plural keys are recognised, and the
 * key rules).
 * `updatedAt` orders this answer against ProjectUpdated events.
 */
export const internalProjectResponseSchema = z.strictObject({
  projectId: z.string(),
  name: z.string(),
  sourceLocale: z.string(),
  i18nextPlurals: z.boolean(),
  keyRules: keyRulesSchema,
  outdateOnContextChange: z.boolean(),
  updatedAt: z.number().int(),
});

/**
 * `GET /internal/users/{userId}/sole-owned-projects`: the projects this user is the only owner
 * of, which deleting the account deletes too (identity-service asks, to name them first).
 */
export const soleOwnedProjectsResponseSchema = z.strictObject({
  projects: z.array(z.strictObject({ projectId: z.string(), name: z.string() })),
});

/**
 * `GET /internal/users/{userId}/projects`: the ids of the projects this user is a member of, and
 * so may read (locale-service asks, to look up translation memory across them and no others).
 */
export const userProjectsResponseSchema = z.strictObject({ projectIds: z.array(z.string()) });

export type ProjectResponse = z.infer<typeof projectResponseSchema>;
export type MemberResponse = z.infer<typeof memberResponseSchema>;
export type MembershipResponse = z.infer<typeof membershipResponseSchema>;
export type InternalProjectResponse = z.infer<typeof internalProjectResponseSchema>;
export type SoleOwnedProjectsResponse = z.infer<typeof soleOwnedProjectsResponseSchema>;
export type UserProjectsResponse = z.infer<typeof userProjectsResponseSchema>;
