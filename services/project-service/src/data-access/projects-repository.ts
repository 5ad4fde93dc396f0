import { KEY_RULE_LISTS, type KeyRules } from '@tolk/contracts';
import type { Db, Queryable } from '@tolk/db';

/**
 * The CLI's configuration of a project (null = not set: the CLI decides), and whether keys are
 * read as i18next plural groups (DESIGN §11), and the key rules (DESIGN §13).
 */
export type ProjectSettings = {
  provider: string | null;
  model: string | null;
  instructions: string | null;
  i18nextPlurals: boolean;
  keyRules: KeyRules;
  /** Whether a changed context annotation outdates its key (DESIGN §13). */
  outdateOnContextChange: boolean;
};

export type Project = {
  projectId: string;
  name: string;
  /** Canonical (`pt-BR`). */
  sourceLocale: string;
  settings: ProjectSettings;
  createdAt: number;
  updatedAt: number;
};

export type Role = 'owner' | 'member';

/** A project as one of its members sees it. */
export type MemberProject = Project & { role: Role };

type ProjectRow = {
  project_id: string;
  name: string;
  source_locale: string;
  provider: string | null;
  model: string | null;
  instructions: string | null;
  i18next_plurals: boolean;
  key_rules: Partial<Record<string, unknown>>;
  outdate_on_context_change: boolean;
  created_at: Date;
  updated_at: Date;
};

const PROJECT_COLUMNS = `p.project_id, p.name, p.source_locale, p.provider, p.model, p.instructions,
       p.i18next_plurals, p.key_rules, p.outdate_on_context_change, p.created_at, p.updated_at`;

/**
 * The stored rules, as the settings know them: only the known lists (a list of another name in a
 * row written by other means is not shown, and the next change of the project leaves it out), a
 * missing one empty.
 */
function keyRulesOf(stored: Partial<Record<string, unknown>>): KeyRules {
  const rules = {} as KeyRules;
  for (const list of KEY_RULE_LISTS) {
    const patterns = stored[list];
    rules[list] = Array.isArray(patterns) ? patterns.filter((p): p is string => typeof p === 'string') : [];
  }
  return rules;
}

function toProject(row: ProjectRow): Project {
  return {
    projectId: row.project_id,
    name: row.name,
    sourceLocale: row.source_locale,
    settings: {
      provider: row.provider,
      model: row.model,
      instructions: row.instructions,
      i18nextPlurals: row.i18next_plurals,
      keyRules: keyRulesOf(row.key_rules),
      outdateOnContextChange: row.outdate_on_context_change,
    },
    createdAt: row.created_at.getTime(),
    updatedAt: row.updated_at.getTime(),
  };
}

function toMemberProject(row: ProjectRow & { role: Role }): MemberProject {
  return { ...toProject(row), role: row.role };
}

/** What a project's row says of it, as both writes take it ($1 to $7). */
function stateOf(project: Project): unknown[] {
  const { provider, model, instructions, i18nextPlurals, keyRules, outdateOnContextChange } =
    project.settings;
  return [
    project.projectId,
    project.name,
    project.sourceLocale,
    provider,
    model,
    instructions,
    i18nextPlurals,
    JSON.stringify(keyRules),
    outdateOnContextChange,
  ];
}

export function createProjectsRepository(db: Db) {
  return {
    async insert(project: Project, q: Queryable = db): Promise<void> {
      await q.query(
        `INSERT INTO projects
           (project_id, name, source_locale, provider, model, instructions, i18next_plurals,
            key_rules, outdate_on_context_change, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        [...stateOf(project), new Date(project.createdAt), new Date(project.updatedAt)],
      );
    },

    /**
     * Locks the project's row until the transaction ends. Every change to a project or its
     * members takes this lock first, so they apply one at a time per project.
     */
    async lock(projectId: string, tx: Queryable): Promise<Project | undefined> {
      const { rows } = await tx.query<ProjectRow>(
        `SELECT ${PROJECT_COLUMNS} FROM projects p WHERE p.project_id = $1 FOR UPDATE`,
        [projectId],
      );
      return rows[0] && toProject(rows[0]);
    },

    /** The project, whoever asks; undefined when it does not exist. */
    async find(projectId: string, q: Queryable = db): Promise<Project | undefined> {
      const { rows } = await q.query<ProjectRow>(
        `SELECT ${PROJECT_COLUMNS} FROM projects p WHERE p.project_id = $1`,
        [projectId],
      );
      return rows[0] && toProject(rows[0]);
    },

    /** The project with the user's role in it; undefined when either is missing. */
    async findForMember(
      projectId: string,
      userId: string,
      q: Queryable = db,
    ): Promise<MemberProject | undefined> {
      const { rows } = await q.query<ProjectRow & { role: Role }>(
        `SELECT ${PROJECT_COLUMNS}, m.role
           FROM projects p
           JOIN project_members m ON m.project_id = p.project_id
          WHERE p.project_id = $1 AND m.user_id = $2`,
        [projectId, userId],
      );
      return rows[0] && toMemberProject(rows[0]);
    },

    /** The user's projects, newest first. */
    async listForMember(userId: string, q: Queryable = db): Promise<MemberProject[]> {
      const { rows } = await q.query<ProjectRow & { role: Role }>(
        `SELECT ${PROJECT_COLUMNS}, m.role
           FROM project_members m
           JOIN projects p ON p.project_id = m.project_id
          WHERE m.user_id = $1
          ORDER BY p.created_at DESC, p.project_id DESC`,
        [userId],
      );
      return rows.map(toMemberProject);
    },

    async update(project: Project, tx: Queryable): Promise<void> {
      await tx.query(
        `UPDATE projects
            SET name = $2, source_locale = $3, provider = $4, model = $5, instructions = $6,
                i18next_plurals = $7, key_rules = $8, outdate_on_context_change = $9, updated_at = $10
          WHERE project_id = $1`,
        [...stateOf(project), new Date(project.updatedAt)],
      );
    },

    /** Deletes the project and every membership in it. */
    async delete(projectId: string, tx: Queryable): Promise<void> {
      await tx.query(`DELETE FROM project_members WHERE project_id = $1`, [projectId]);
      await tx.query(`DELETE FROM projects WHERE project_id = $1`, [projectId]);
    },
  };
}

export type ProjectsRepository = ReturnType<typeof createProjectsRepository>;
