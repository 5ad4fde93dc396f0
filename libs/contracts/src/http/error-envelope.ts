import { z } from 'zod';

/**
 * The body of every error, from the gateway and from every service (DESIGN §3): exactly
 * `{"error":{"code","message"}}`, nothing else.
 */
export const errorResponseSchema = z.strictObject({
  error: z.strictObject({
    code: z
      .string()
      .regex(/^[A-Z][A-Z0-9_]*$/)
      .meta({ description: 'An upper-case error code, e.g. VALIDATION_ERROR' }),
    message: z.string().min(1).meta({ description: 'What went wrong, for people' }),
  }),
});

export type ErrorResponse = z.infer<typeof errorResponseSchema>;
