import { z } from 'zod';

/**
 * The verified caller, as the gateway forwards it to a service inside a short-lived internal
 * token. Services never trust a client-sent identity header; they verify this token.
 */
export const principalSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('user'), userId: z.string().min(1) }),
  z.object({
    kind: z.literal('project_token'),
    tokenId: z.string().min(1),
    projectId: z.string().min(1),
    permissions: z.enum(['read', 'read_write']),
  }),
]);
export type Principal = z.infer<typeof principalSchema>;

/** Header that carries the internal principal token from the gateway to a service. */
export const PRINCIPAL_HEADER = 'x-tolk-principal';
/**
 * Header that carries a service's own credential on calls to another service's `/internal/...`
 * routes (no user behind them): a short-lived token signed with the internal secret.
 */
export const INTERNAL_CALLER_HEADER = 'x-tolk-internal-caller';
/** Header that carries the request id through every hop and every event. */
export const REQUEST_ID_HEADER = 'x-request-id';
/** Client-sent headers the gateway strips before forwarding. */
export const IDENTITY_HEADERS = [
  PRINCIPAL_HEADER,
  INTERNAL_CALLER_HEADER,
  'x-user-id',
  'x-project-id',
  'x-principal',
  'x-forwarded-user',
];
