import { NO_KEY_RULES, type KeyRules } from '@tolk/contracts';
import type { Db, Queryable } from '@tolk/db';
import {
  createProjectReplica,
  keyRulesColumn,
  sourceLocaleColumn,
  type ReplicaExtraColumn,
} from '@tolk/projects';

/** What locale-service knows of a project. */
export type LocaleProject = {
  projectId: string;
  /** Canonical (`pt-BR`). */
  sourceLocale: string;
  /** Whether keys are read as i18next plural groups (DESIGN §11). */
  i18nextPlurals: boolean;
  /** Glob patterns over keys (DESIGN §13): which keys a locale has, and which count as translated. */
  keyRules: KeyRules;
};

/** The replica's columns of locale-service: the source locale, the plural-key setting, the key rules. */
export const LOCALE_PROJECT_COLUMNS: readonly ReplicaExtraColumn[] = [
  sourceLocaleColumn,
  {
    name: 'i18next_plurals',
    type: 'boolean',
    nullable: false,
    fromFacts: (facts) => facts.i18nextPlurals ?? true,
  },
  keyRulesColumn,
];

/** What a locale's keys and counts depend on, beyond the source (DESIGN §11, §13). */
export type KeySettings = Pick<LocaleProject, 'i18nextPlurals' | 'keyRules'>;

/** The project's settings; a project not known has the defaults (plural keys read, no rules). */
export function keySettingsOf(project: KeySettings | undefined): KeySettings {
  return { i18nextPlurals: project?.i18nextPlurals ?? true, keyRules: project?.keyRules ?? NO_KEY_RULES };
}

export function createProjectsRepository(db: Db) {
  const replica = createProjectReplica(db, {
    extra: LOCALE_PROJECT_COLUMNS,
    toProject: (row: {
      project_id: string;
      source_locale: string;
      i18next_plurals: boolean;
      key_rules: KeyRules;
    }) => ({
      projectId: row.project_id,
      sourceLocale: row.source_locale,
      i18nextPlurals: row.i18next_plurals,
      keyRules: row.key_rules,
    }),
  });

  return {
    ...replica,

    /**
     * The plural-key setting and the key rules, with the project's row share-locked until the
     * transaction ends: a ProjectUpdated that changes them (and marks the locales' counts stale)
     * waits for the transaction, so a locale row inserted in it is marked too. Taken before any
     * locale row, as the consumer takes the project's row before the locales'. Absent project:
     * the defaults (plural keys read, no rules).
     */
    async lockKeySettings(projectId: string, tx: Queryable): Promise<KeySettings> {
      return keySettingsOf(await replica.lock(projectId, tx, 'share'));
    },

    /**
     * Drops every row of the project and leaves its tombstone. The baseline row goes first: a
     * change to the project's locales in progress holds its lock, so this waits for it and then
     * removes what it wrote too.
     */
    async purge(projectId: string, at: number, tx: Queryable): Promise<void> {
      await tx.query(`DELETE FROM baselines WHERE project_id = $1`, [projectId]);
      await tx.query(`DELETE FROM locales WHERE project_id = $1`, [projectId]);
      await tx.query(`DELETE FROM source_heads WHERE project_id = $1`, [projectId]);
      await tx.query(`DELETE FROM memory WHERE project_id = $1`, [projectId]);
      await tx.query(`DELETE FROM memory_texts WHERE project_id = $1`, [projectId]);
      await replica.bury(projectId, at, tx);
    },
  };
}

export type ProjectsRepository = ReturnType<typeof createProjectsRepository>;
