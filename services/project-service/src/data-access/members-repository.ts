import type { Db, Queryable } from '@tolk/db';
import type { Role } from './projects-repository.js';

export type Membership = { projectId: string; userId: string; role: Role; addedAt: number };

type MembershipRow = { project_id: string; user_id: string; role: Role; added_at: Date };

function toMembership(row: MembershipRow): Membership {
  return { projectId: row.project_id, userId: row.user_id, role: row.role, addedAt: row.added_at.getTime() };
}

export function createMembersRepository(db: Db) {
  return {
    /** Adds the membership unless the user is already a member; false then, and nothing written. */
    async insertUnlessMember(membership: Membership, q: Queryable = db): Promise<boolean> {
      const { rowCount } = await q.query(
        `INSERT INTO project_members (project_id, user_id, role, added_at)
         VALUES ($1, $2, $3, $4)
         ON CONFLICT (project_id, user_id) DO NOTHING`,
        [membership.projectId, membership.userId, membership.role, new Date(membership.addedAt)],
      );
      return rowCount === 1;
    },

    async find(projectId: string, userId: string, q: Queryable = db): Promise<Membership | undefined> {
      const { rows } = await q.query<MembershipRow>(
        `SELECT project_id, user_id, role, added_at FROM project_members WHERE project_id = $1 AND user_id = $2`,
        [projectId, userId],
      );
      return rows[0] && toMembership(rows[0]);
    },

    /** In the order they joined. */
    async listByProject(projectId: string, q: Queryable = db): Promise<Membership[]> {
      const { rows } = await q.query<MembershipRow>(
        `SELECT project_id, user_id, role, added_at FROM project_members
          WHERE project_id = $1
          ORDER BY added_at, user_id`,
        [projectId],
      );
      return rows.map(toMembership);
    },

    /**
     * The projects `userId` is the only owner of, oldest first (other members, if any, are not
     * owners): deleting the account deletes these.
     */
    async listSolelyOwned(userId: string, q: Queryable = db): Promise<{ projectId: string; name: string }[]> {
      const { rows } = await q.query<{ project_id: string; name: string }>(
        `SELECT p.project_id, p.name
           FROM project_members m
           JOIN projects p ON p.project_id = m.project_id
          WHERE m.user_id = $1 AND m.role = 'owner'
            AND NOT EXISTS (SELECT 1 FROM project_members o
                             WHERE o.project_id = m.project_id AND o.role = 'owner' AND o.user_id <> $1)
          ORDER BY p.created_at, p.project_id`,
        [userId],
      );
      return rows.map((row) => ({ projectId: row.project_id, name: row.name }));
    },

    /** The ids of the projects `userId` is a member of, in id order (the order they are locked in). */
    async listProjectIdsOfUser(userId: string, q: Queryable = db): Promise<string[]> {
      const { rows } = await q.query<{ project_id: string }>(
        `SELECT project_id FROM project_members WHERE user_id = $1 ORDER BY project_id`,
        [userId],
      );
      return rows.map((row) => row.project_id);
    },

    async countOwners(projectId: string, q: Queryable = db): Promise<number> {
      const { rows } = await q.query<{ owners: number }>(
        `SELECT count(*)::int AS owners FROM project_members WHERE project_id = $1 AND role = 'owner'`,
        [projectId],
      );
      return rows[0]?.owners ?? 0;
    },

    async setRole(projectId: string, userId: string, role: Role, q: Queryable = db): Promise<void> {
      await q.query(`UPDATE project_members SET role = $3 WHERE project_id = $1 AND user_id = $2`, [
        projectId,
        userId,
        role,
      ]);
    },

    async delete(projectId: string, userId: string, q: Queryable = db): Promise<void> {
      await q.query(`DELETE FROM project_members WHERE project_id = $1 AND user_id = $2`, [
        projectId,
        userId,
      ]);
    },
  };
}

export type MembersRepository = ReturnType<typeof createMembersRepository>;
