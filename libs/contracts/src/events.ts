import { z } from 'zod';

/** Every event on the bus travels in this envelope (DESIGN §6). */
export const eventEnvelopeSchema = z.object({
  id: z.string().min(1),
  type: z.string().min(1),
  occurredAt: z.number().int().nonnegative(),
  producer: z.string().min(1),
  data: z.record(z.string(), z.unknown()),
});
export type EventEnvelope = z.infer<typeof eventEnvelopeSchema>;

export const EVENT_TYPES = [
  'SourceChanged',
  'ProjectCreated',
  'ProjectUpdated',
  'ProjectDeleted',
  'ProjectMembershipChanged',
  'TokenRevoked',
  'TranslationBaselineChanged',
  'UserDeleted',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** The topic exchange every service publishes to; routing key = event type. */
export const EVENTS_EXCHANGE = 'tolk.events';
