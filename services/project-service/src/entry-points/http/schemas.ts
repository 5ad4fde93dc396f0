import { z } from 'zod';
import { AI_PROVIDERS, LOCALE_PATTERN, canonicalLocale } from '@tolk/contracts';

/** A string field whose messages say plainly whether it was missing or of the wrong type. */
function text() {
  return z.string({
    error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string'),
  });
}

/** Request bodies are JSON objects; anything else is named as such. */
function body<Shape extends z.core.$ZodLooseShape>(shape: Shape) {
  return z.object(shape, { error: 'must be a JSON object' });
}

/** C0 controls and DEL: never part of a name or a model; NUL is refused by the database itself. */
function hasControlCharacter(value: string): boolean {
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

/** Any case accepted (the spec's pattern is case-insensitive); stored canonically, `pt-BR`. */
const locale = text()
  .regex(LOCALE_PATTERN, { error: 'must be a locale code such as en, de or pt-BR' })
  .transform(canonicalLocale);

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
const settings = z.object(
  {
    provider: z
      .enum(AI_PROVIDERS, { error: `must be one of ${AI_PROVIDERS.join(', ')}, or null` })
      .nullable()
      .optional(),
    model: optionalText(200, hasControlCharacter).optional(),
    // Free text for the translator: line breaks and tabs are welcome, NUL is not.
    instructions: optionalText(10_000, hasNul).optional(),
  },
  { error: 'must be a JSON object' },
);

const role = z.enum(['owner', 'member'], { error: 'must be owner or member' });

// 254: the longest address SMTP can deliver to (RFC 5321).
const email = text()
  .trim()
  .toLowerCase()
  .max(254, { error: 'must be at most 254 characters' })
  .pipe(z.email({ error: 'must be an email address' }));

// ---- requests ----

export const createProjectRequestSchema = body({
  name,
  sourceLocale: locale,
  settings: settings.optional(),
});

export const updateProjectRequestSchema = body({
  name: name.optional(),
  sourceLocale: locale.optional(),
  settings: settings.optional(),
}).refine(
  (input) => input.name !== undefined || input.sourceLocale !== undefined || input.settings !== undefined,
  { error: 'must contain at least one of name, sourceLocale, settings' },
);

export const addMemberRequestSchema = body({
  email,
  role: role.default('member'),
});

// ---- responses ----

export const projectResponseSchema = z.strictObject({
  projectId: z.string(),
  name: z.string(),
  sourceLocale: z.string(),
  settings: z.strictObject({
    provider: z.string().nullable(),
    model: z.string().nullable(),
    instructions: z.string().nullable(),
  }),
  /** The caller's role; null when the caller is a project API token (no member behind it). */
  role: role.nullable(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
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
 * its source locale). `updatedAt` orders this answer against ProjectUpdated events.
 */
export const internalProjectResponseSchema = z.strictObject({
  projectId: z.string(),
  name: z.string(),
  sourceLocale: z.string(),
  updatedAt: z.number().int(),
});

export type ProjectResponse = z.infer<typeof projectResponseSchema>;
export type MemberResponse = z.infer<typeof memberResponseSchema>;
export type MembershipResponse = z.infer<typeof membershipResponseSchema>;
export type InternalProjectResponse = z.infer<typeof internalProjectResponseSchema>;
