import { z } from 'zod';
import { USER_CODE_PATTERN, normalizeUserCode } from '../../domain/user-codes.js';

/** A string field whose messages say plainly whether it was missing or of the wrong type. */
function text() {
  return z.string({
    error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string'),
  });
}

// 254: the longest address SMTP can deliver to (RFC 5321).
const email = text()
  .trim()
  .toLowerCase()
  .max(254, { error: 'must be at most 254 characters' })
  .pipe(z.email({ error: 'must be an email address' }));

const password = text()
  .min(8, { error: 'must be at least 8 characters' })
  .max(1024, { error: 'must be at most 1024 characters' });

const opaqueToken = text()
  .min(1, { error: 'must not be empty' })
  .max(512, { error: 'must be at most 512 characters' });

// Accepted as typed: any case, with or without the dash.
const userCode = text()
  .transform(normalizeUserCode)
  .pipe(z.string().regex(USER_CODE_PATTERN, { error: 'must be a code like BCDF-GHJK' }));

/** Request bodies are JSON objects; anything else is named as such. */
function body<Shape extends z.core.$ZodLooseShape>(shape: Shape) {
  return z.object(shape, { error: 'must be a JSON object' });
}

// ---- requests ----

export const signupRequestSchema = body({
  email,
  password,
  // Blank or absent names are stored as null.
  name: z
    .string({ error: 'must be a string or null' })
    .trim()
    .max(200, { error: 'must be at most 200 characters' })
    .nullish()
    .transform((value) => value || null),
});

export const loginRequestSchema = body({
  // Not checked for format: any unknown address gets the same answer as a wrong password.
  email: text().trim().toLowerCase().max(1024, { error: 'must be at most 1024 characters' }),
  password: text().max(1024, { error: 'must be at most 1024 characters' }),
});

export const refreshTokenRequestSchema = body({ refreshToken: opaqueToken });

/** The CLI sends no body (or `{}`); RFC 8628 fields such as client_id are ignored. */
export const deviceAuthorizationRequestSchema = body({}).optional();

export const deviceTokenRequestSchema = body({ deviceCode: opaqueToken });

export const userCodeRequestSchema = body({ userCode });

// ---- internal requests (other services; the gateway never routes /internal) ----

/** `GET /internal/users?email=`: the address as a user would type it. */
export const userByEmailQuerySchema = z.object({ email }, { error: 'must be a query string' });

/** Enough for any project's member list in one call. */
export const MAX_LOOKUP_USER_IDS = 1000;

export const usersLookupRequestSchema = body({
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
  createdAt: z.number().int(),
});

export const sessionResponseSchema = z.strictObject({
  user: userResponseSchema,
  accessToken: z.string(),
  refreshToken: z.string(),
  expiresIn: z.number().int(),
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

export type UserResponse = z.infer<typeof userResponseSchema>;
export type DirectoryUserResponse = z.infer<typeof directoryUserResponseSchema>;
export type SessionResponse = z.infer<typeof sessionResponseSchema>;
export type DeviceAuthorizationResponse = z.infer<typeof deviceAuthorizationResponseSchema>;
