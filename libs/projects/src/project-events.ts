import { projectEventDataSchemas, type EventEnvelope } from '@tolk/contracts';
import type { Queryable } from '@tolk/db';
import type { ProjectFacts } from './project-directory.js';

/** The project events every service that keeps a project replica consumes. */
export const PROJECT_EVENTS = ['ProjectCreated', 'ProjectUpdated', 'ProjectDeleted'] as const;

/** What a service does with project events, inside the transaction that records one as processed. */
export type ProjectEventCases = {
  /** ProjectCreated / ProjectUpdated; project-service's updatedAt is the event's occurredAt. */
  projectChanged(facts: ProjectFacts, tx: Queryable): Promise<void>;
  projectDeleted(projectId: string, tx: Queryable): Promise<void>;
};

/**
 * The effect of a project event, or undefined for any other type. Each type is parsed against
 * its own contract: data that breaks it is poison (thrown), even when the fields used would parse.
 */
export function projectEventEffect(
  envelope: EventEnvelope,
  cases: ProjectEventCases,
): { projectId: string; apply: (tx: Queryable) => Promise<void> } | undefined {
  const updatedAt = envelope.occurredAt;
  switch (envelope.type) {
    case 'ProjectCreated': {
      const { projectId, sourceLocale, i18nextPlurals, keyRules, outdateOnContextChange } =
        projectEventDataSchemas.ProjectCreated.parse(envelope.data);
      const facts = { projectId, sourceLocale, i18nextPlurals, keyRules, outdateOnContextChange, updatedAt };
      return { projectId, apply: (tx) => cases.projectChanged(facts, tx) };
    }
    case 'ProjectUpdated': {
      const data = projectEventDataSchemas.ProjectUpdated.parse(envelope.data);
      const { projectId, sourceLocale } = data;
      const { i18nextPlurals, keyRules, outdateOnContextChange } = data.settings;
      const facts = { projectId, sourceLocale, i18nextPlurals, keyRules, outdateOnContextChange, updatedAt };
      return { projectId, apply: (tx) => cases.projectChanged(facts, tx) };
    }
    case 'ProjectDeleted': {
      const { projectId } = projectEventDataSchemas.ProjectDeleted.parse(envelope.data);
      return { projectId, apply: (tx) => cases.projectDeleted(projectId, tx) };
    }
    default:
      return undefined;
  }
}

/**
 * The effects of the project events on a service's replica (`cases`), by type, for a consumer
 * that takes other events too (`consumerOf` of @tolk/bus).
 */
export function projectEventEffects(cases: ProjectEventCases) {
  const effect = (envelope: EventEnvelope) => projectEventEffect(envelope, cases)?.apply;
  return { ProjectCreated: effect, ProjectUpdated: effect, ProjectDeleted: effect };
}
