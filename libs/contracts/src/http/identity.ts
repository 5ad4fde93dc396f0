/**
 * identity-service's HTTP API: the Auth and User routes, and `/internal/users` for other
 * services. identity-service validates with these schemas; the gateway documents them.
 */
import { z } from 'zod';
import { normalizeEmail } from '../email.js';
import { emailAddress, epochMillis, jsonObject, text } from './fields.js';

/**
 * A device login's user code (RFC 8628 §6.1) as stored: eight consonants, so no digit/letter
 * look-alikes and no words. Shown as `XXXX-XXXX`.
 */
export const USER_CODE_PATTERN = /^[BCDFGHJKLMNPQRSTVWXZ]{8}$/;

/** What people type: any case, with or without the dash or spaces. */
export function normalizeUserCode(input: string): string {
  return input.toUpperCase().replace(/[\s-]/g, '');
}

const password = text()
  .min(8, { error: 'must be at least 8 characters' })
  .max(1024, { error: 'must be at most 1024 characters' });

const opaqueToken = text()
  .min(1, { error: 'must not be empty' })
  .max(512, { error: 'must be at most 512 characters' });

// Accepted as typed: any case, with or without the dash.
const userCode = text()
  .transform(normalizeUserCode)
  .pipe(z.string().regex(USER_CODE_PATTERN, { error: 'must be a code like BCDF-GHJK' }))
  .meta({ description: 'The code shown to the user, e.g. BCDF-GHJK: any case, the dash optional' });

// ---- requests ----

export const signupRequestSchema = jsonObject({
  email: emailAddress,
  password,
  // Blank or absent names are stored as null.
  name: z
    .string({ error: 'must be a string or null' })
    .trim()
    .max(200, { error: 'must be at most 200 characters' })
    .nullish()
    .transform((value) => value || null),
});

export const loginRequestSchema = jsonObject({
  // Not checked for format: any unknown address gets the same answer as a wrong password.
  // The form identity-service looks up and the gateway counts failed logins under.
  email: text().overwrite(normalizeEmail).max(1024, { error: 'must be at most 1024 characters' }),
  password: text().max(1024, { error: 'must be at most 1024 characters' }),
});

export const refreshTokenRequestSchema = jsonObject({ refreshToken: opaqueToken });

/** The CLI sends no body (or `{}`); RFC 8628 fields such as client_id are ignored. */
export const deviceAuthorizationRequestSchema = jsonObject({}).optional();

export const deviceTokenRequestSchema = jsonObject({ deviceCode: opaqueToken });

export const userCodeRequestSchema = jsonObject({ userCode });

/**
 * `DELETE /v1/user/me`: without `confirm` (no body, or `{}`) nothing is deleted and the answer is
 * 409 naming the projects that would go with the account; `confirm` must be the account's email,
 * typed again, as GitHub asks for a repository's name before deleting it.
 */
export const deleteAccountRequestSchema = jsonObject({
  confirm: text()
    .overwrite(normalizeEmail)
    .max(1024, { error: 'must be at most 1024 characters' })
    .optional()
    .meta({ description: "The account's email, typed again to confirm the deletion" }),
}).optional();

// ---- internal requests (other services; the gateway never routes /internal) ----

/** `GET /internal/users?email=`: the address as a user would type it. */
export const userByEmailQuerySchema = z.object({ email: emailAddress }, { error: 'must be a query string' });

/** Enough for any project's member list in one call. */
export const MAX_LOOKUP_USER_IDS = 1000;

export const usersLookupRequestSchema = jsonObject({
  userIds: z
    .array(
      text().min(1, { error: 'must not be empty' }).max(200, { error: 'must be at most 200 characters' }),
      {
        error: (issue) => (issue.input === undefined ? 'is required' : 'must be an array of user ids'),
      },
    )
    .max(MAX_LOOKUP_USER_IDS, { error: `must hold at most ${MAX_LOOKUP_USER_IDS} user ids` }),
});

// ---- responses ----

export const userResponseSchema = z.strictObject({
  userId: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  createdAt: epochMillis(),
});

export const sessionResponseSchema = z.strictObject({
  user: userResponseSchema,
  accessToken: z.string().meta({ description: 'An ES256 JWT for `Authorization: Bearer`' }),
  refreshToken: z.string().meta({ description: 'For POST /v1/auth/refresh; rotated on every use' }),
  expiresIn: z.number().int().meta({ description: 'Seconds until the access token expires' }),
});

export const deviceAuthorizationResponseSchema = z.strictObject({
  deviceCode: z.string(),
  userCode: z.string(),
  verificationUri: z.string(),
  verificationUriComplete: z.string(),
  expiresIn: z.number().int(),
  interval: z.number().int(),
});

/** What another service learns about a user: no timestamps, nothing secret. */
export const directoryUserResponseSchema = z.strictObject({
  userId: z.string(),
  email: z.string(),
  name: z.string().nullable(),
});

export const usersLookupResponseSchema = z.strictObject({ users: z.array(directoryUserResponseSchema) });

export type DeleteAccountRequest = z.infer<typeof deleteAccountRequestSchema>;
export type UserResponse = z.infer<typeof userResponseSchema>;
export type DirectoryUserResponse = z.infer<typeof directoryUserResponseSchema>;
export type SessionResponse = z.infer<typeof sessionResponseSchema>;
export type DeviceAuthorizationResponse = z.infer<typeof deviceAuthorizationResponseSchema>;
