import { z } from 'zod';
import type { EventType } from './events.js';

/**
 * Key rules as events and the internal answer carry them (DESIGN §13); absent in events written
 * before they existed: no rules.
 */
export const keyRulesData = z.object({
  humanOnly: z.array(z.string()),
  neverTranslate: z.array(z.string()),
  exclude: z.array(z.string()),
});

/** What happened to a membership (ProjectMembershipChanged). */
export const MEMBERSHIP_CHANGES = ['added', 'removed', 'role_changed'] as const;
export type MembershipChange = (typeof MEMBERSHIP_CHANGES)[number];

/**
 * The `data` of the events project-service publishes. Consumers parse with these; unknown
 * members are tolerated so that a producer can add fields without breaking older consumers.
 */
export const projectEventDataSchemas = {
  ProjectCreated: z.object({
    projectId: z.string().min(1),
    name: z.string(),
    /** Canonical (`pt-BR`). */
    sourceLocale: z.string().min(1),
    ownerId: z.string().min(1),
    /** Absent in events written before the setting existed: true, its default. */
    i18nextPlurals: z.boolean().optional(),
    keyRules: keyRulesData.optional(),
    /** Absent in events written before the setting existed: true, its default. */
    outdateOnContextChange: z.boolean().optional(),
  }),
  /** The project's state after the change (name, source locale, CLI settings). */
  ProjectUpdated: z.object({
    projectId: z.string().min(1),
    name: z.string(),
    sourceLocale: z.string().min(1),
    settings: z.object({
      // A string, not the provider enum: a provider added later must not fail older consumers.
      provider: z.string().nullable(),
      model: z.string().nullable(),
      instructions: z.string().nullable(),
      /** Absent in events written before the setting existed: true, its default. */
      i18nextPlurals: z.boolean().optional(),
      keyRules: keyRulesData.optional(),
      /** Absent in events written before the setting existed: true, its default. */
      outdateOnContextChange: z.boolean().optional(),
    }),
  }),
  /** Every service drops the project's data. */
  ProjectDeleted: z.object({ projectId: z.string().min(1) }),
  /**
   * A member was added, removed (or left) or given another role: whoever caches memberships
   * evicts (projectId, userId); token-service revokes the tokens a removed member created.
   * `change` is absent only in events written before it existed (treated as unknown).
   */
  ProjectMembershipChanged: z.object({
    projectId: z.string().min(1),
    userId: z.string().min(1),
    change: z.enum(MEMBERSHIP_CHANGES).optional(),
  }),
} satisfies Partial<Record<EventType, z.ZodType>>;

export type ProjectEventType = keyof typeof projectEventDataSchemas;
export type ProjectEventData<T extends ProjectEventType> = z.infer<(typeof projectEventDataSchemas)[T]>;
export const PROJECT_EVENT_TYPES = Object.keys(projectEventDataSchemas) as ProjectEventType[];
