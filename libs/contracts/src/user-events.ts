import { z } from 'zod';
import type { EventType } from './events.js';

/** The `data` of the events identity-service publishes. */
export const userEventDataSchemas = {
  /**
   * An account was deleted (`DELETE /v1/user/me`): project-service removes its memberships and
   * deletes the projects it alone owned, byok-service its provider keys, token-service revokes the
   * tokens it created, and every gateway refuses its access tokens until they would have expired.
   */
  UserDeleted: z.object({ userId: z.string().min(1) }),
} satisfies Partial<Record<EventType, z.ZodType>>;
