import { enqueueEvent } from '@tolk/bus';
import {
  compileKeyRules,
  KEY_RULE_LISTS,
  keyRulesCostProblem,
  keyRulesWorkProblem,
  NO_KEY_RULES,
  type KeyRuleList,
  type KeyRules,
} from '@tolk/contracts';
import type { Db } from '@tolk/db';
import { ValidationError } from '@tolk/errors';
import type { Logger } from '@tolk/logger';
import type { MembersRepository } from '../data-access/members-repository.js';
import type { SourceClient } from '../data-access/source-client.js';
import type {
  MemberProject,
  Project,
  ProjectSettings,
  ProjectsRepository,
} from '../data-access/projects-repository.js';
import { isPlausibleId, newProjectId } from './ids.js';
import { projectNotFound, requireOwner, type ProjectAccess } from './project-access.js';
import { projectEvent } from './project-events.js';

export const DEFAULT_SETTINGS: ProjectSettings = {
  provider: null,
  model: null,
  instructions: null,
  i18nextPlurals: true,
  keyRules: { humanOnly: [], neverTranslate: [], exclude: [] },
  outdateOnContextChange: true,
};

/** Validated and normalised by the request schemas (trimmed name, canonical locale). */
export type SettingsPatch = Partial<Omit<ProjectSettings, 'keyRules'>> & {
  keyRules?: Partial<KeyRules>;
};
export type NewProject = { name: string; sourceLocale: string; settings?: SettingsPatch };
export type ProjectChanges = { name?: string; sourceLocale?: string; settings?: SettingsPatch };

/** Each list given replaces that list; one left out stays. */
function mergeKeyRules(rules: KeyRules, patch: Partial<KeyRules> = {}): KeyRules {
  const merged = { ...NO_KEY_RULES };
  for (const list of KEY_RULE_LISTS) merged[list] = [...(patch[list] ?? rules[list])];
  return merged;
}

function sameKeyRules(a: KeyRules, b: KeyRules): boolean {
  const same = (list: KeyRuleList) =>
    a[list].length === b[list].length && a[list].every((pattern, i) => pattern === b[list][i]);
  return KEY_RULE_LISTS.every(same);
}

/** `patch` over `settings`: a value given (null included) replaces; one left out stays. */
function mergeSettings(settings: ProjectSettings, patch: SettingsPatch = {}): ProjectSettings {
  return {
    provider: patch.provider !== undefined ? patch.provider : settings.provider,
    model: patch.model !== undefined ? patch.model : settings.model,
    instructions: patch.instructions !== undefined ? patch.instructions : settings.instructions,
    i18nextPlurals: patch.i18nextPlurals ?? settings.i18nextPlurals,
    keyRules: mergeKeyRules(settings.keyRules, patch.keyRules),
    outdateOnContextChange: patch.outdateOnContextChange ?? settings.outdateOnContextChange,
  };
}

const KEY_RULES_FIELD = 'body.settings.keyRules';

function sameProject(a: Project, b: Project): boolean {
  return (
    a.name === b.name &&
    a.sourceLocale === b.sourceLocale &&
    a.settings.provider === b.settings.provider &&
    a.settings.model === b.settings.model &&
    a.settings.instructions === b.settings.instructions &&
    a.settings.i18nextPlurals === b.settings.i18nextPlurals &&
    sameKeyRules(a.settings.keyRules, b.settings.keyRules) &&
    a.settings.outdateOnContextChange === b.settings.outdateOnContextChange
  );
}

/**
 * Projects: create, list the caller's, read, change and delete. Every change writes its event
 * to the outbox in the same transaction.
 */
export function createProjects(deps: {
  db: Db;
  projects: ProjectsRepository;
  members: MembersRepository;
  access: ProjectAccess;
  source: Pick<SourceClient, 'keyCharacters'>;
  /** The most work a project's key rules may take over its source's keys (keyRulesWorkProblem). */
  keyRulesBudget: number;
  now: () => number;
  logger: Logger;
}) {
  const { db, projects, members, access, source, now, logger } = deps;

  /**
   * Rules that cost too much per key character are refused; `projectId`: of a project whose
   * current source their work over its keys must stay within the budget.
   */
  async function requireAffordable(rules: KeyRules, projectId?: string): Promise<void> {
    const matcher = await compileKeyRules(rules);
    if (matcher.empty) return;
    const tooCostly = keyRulesCostProblem(matcher);
    if (tooCostly) throw new ValidationError(`${KEY_RULES_FIELD}: ${tooCostly}`);
    if (!projectId) return;
    const problem = keyRulesWorkProblem(matcher, await source.keyCharacters(projectId), deps.keyRulesBudget);
    if (problem) throw new ValidationError(`${KEY_RULES_FIELD}: ${problem}`);
  }

  return {
    /** The creator becomes the project's first owner. */
    async create(ownerId: string, input: NewProject): Promise<MemberProject> {
      const settings = mergeSettings(DEFAULT_SETTINGS, input.settings);
      await requireAffordable(settings.keyRules);
      const at = now();
      const project: Project = {
        projectId: newProjectId(),
        name: input.name,
        sourceLocale: input.sourceLocale,
        settings,
        createdAt: at,
        updatedAt: at,
      };
      await db.transaction(async (tx) => {
        await projects.insert(project, tx);
        await members.insertUnlessMember(
          { projectId: project.projectId, userId: ownerId, role: 'owner', addedAt: at },
          tx,
        );
        const { projectId, name, sourceLocale } = project;
        const { i18nextPlurals, keyRules, outdateOnContextChange } = project.settings;
        const data = {
          projectId,
          name,
          sourceLocale,
          ownerId,
          i18nextPlurals,
          keyRules,
          outdateOnContextChange,
        };
        await enqueueEvent(tx, db.schema, projectEvent('ProjectCreated', data, at));
      });
      logger.info({ projectId: project.projectId, userId: ownerId }, 'project created');
      return { ...project, role: 'owner' };
    },

    /** The caller's projects, newest first. */
    list(userId: string): Promise<MemberProject[]> {
      return projects.listForMember(userId);
    },

    async get(userId: string, projectId: string): Promise<MemberProject> {
      const project = isPlausibleId(projectId) ? await projects.findForMember(projectId, userId) : undefined;
      if (!project) throw projectNotFound();
      return project;
    },

    /** For other services (internal API): the project as it is, with no caller behind the ask. */
    async describe(projectId: string): Promise<Project> {
      const project = isPlausibleId(projectId) ? await projects.find(projectId) : undefined;
      if (!project) throw projectNotFound();
      return project;
    },

    /**
     * Owners only. `settings` is merged; a change that changes nothing writes nothing. New key
     * rules are compiled and budgeted before the project's row is locked: no lock or connection
     * is held while that takes its time; they are checked again under the lock only when another
     * change of them came in between.
     */
    async update(userId: string, projectId: string, changes: ProjectChanges): Promise<MemberProject> {
      let checked: KeyRules | undefined;
      if (changes.settings?.keyRules) {
        requireOwner(await access.roleOf(projectId, userId));
        const known = await projects.find(projectId);
        if (!known) throw projectNotFound();
        checked = mergeKeyRules(known.settings.keyRules, changes.settings.keyRules);
        if (!sameKeyRules(known.settings.keyRules, checked)) await requireAffordable(checked, projectId);
      }
      return db.transaction(async (tx) => {
        const current = await access.lockAsOwner(projectId, userId, tx);
        const next: Project = {
          ...current,
          name: changes.name ?? current.name,
          sourceLocale: changes.sourceLocale ?? current.sourceLocale,
          settings: mergeSettings(current.settings, changes.settings),
        };
        if (sameProject(current, next)) return { ...current, role: 'owner' };
        const rules = next.settings.keyRules;
        if (!sameKeyRules(current.settings.keyRules, rules) && !(checked && sameKeyRules(checked, rules))) {
          await requireAffordable(rules, projectId);
        }
        next.updatedAt = Math.max(now(), current.updatedAt);
        await projects.update(next, tx);
        const { name, sourceLocale, settings } = next;
        await enqueueEvent(
          tx,
          db.schema,
          projectEvent('ProjectUpdated', { projectId, name, sourceLocale, settings }, next.updatedAt),
        );
        return { ...next, role: 'owner' };
      });
    },

    /** Owners only. The project and every membership go, with ProjectDeleted, at once. */
    async delete(userId: string, projectId: string): Promise<void> {
      await db.transaction(async (tx) => {
        await access.lockAsOwner(projectId, userId, tx);
        await projects.delete(projectId, tx);
        await enqueueEvent(tx, db.schema, projectEvent('ProjectDeleted', { projectId }, now()));
      });
      logger.info({ projectId, userId }, 'project deleted');
    },
  };
}

export type Projects = ReturnType<typeof createProjects>;
