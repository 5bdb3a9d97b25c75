// Kysely queries of the projects module. Every query is scoped to a workspace id: a project of
// another workspace is simply not found.
import type { Kysely, Transaction, Updateable } from 'kysely'
import type { DialectName } from '../../platform/db/index.ts'
import { forUpdate } from '../../platform/db/dialect.ts'
import type { ProjectTable, Tables } from '../../platform/db/tables.ts'
import { findWorkspaceMembership } from '../../platform/auth/membership.ts'

export type Executor = Kysely<Tables> | Transaction<Tables>
export type ProjectRow = Tables['projects']
export type ProjectMemberRow = Tables['project_members'] & { name: string; email: string }

export const insertProject = (db: Executor, row: ProjectRow) => db.insertInto('projects').values(row).execute()

export const findProject = (db: Executor, workspaceId: string, projectId: string): Promise<ProjectRow | undefined> =>
  db.selectFrom('projects').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', projectId).executeTakeFirst()

/** The project with its row locked for the rest of the transaction (PostgreSQL; SQLite holds the write lock). */
export const findProjectForUpdate = (db: Executor, dialect: DialectName, workspaceId: string, projectId: string) =>
  forUpdate(dialect, db.selectFrom('projects').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', projectId))
    .executeTakeFirst()

export function listProjects(db: Executor, workspaceId: string, filter: {
  status: 'active' | 'archived' | 'all'; beforeId: string | undefined; limit: number
}): Promise<ProjectRow[]> {
  let query = db.selectFrom('projects').selectAll().where('workspace_id', '=', workspaceId)
  if (filter.status !== 'all') query = query.where('status', '=', filter.status)
  if (filter.beforeId !== undefined) query = query.where('id', '<', filter.beforeId)
  // Ids are ULIDs: descending id is newest first.
  return query.orderBy('id', 'desc').limit(filter.limit + 1).execute()
}

export const updateProject = (db: Executor, workspaceId: string, projectId: string, changes: Updateable<ProjectTable>) =>
  db.updateTable('projects').set(changes).where('workspace_id', '=', workspaceId).where('id', '=', projectId).execute()

const memberColumns = ['pm.project_id', 'pm.workspace_id', 'pm.account_id', 'pm.primary_role', 'pm.secondary_roles',
  'pm.added_by', 'pm.created_at', 'pm.updated_at', 'u.name', 'u.email'] as const

export const listProjectMembers = (db: Executor, workspaceId: string, projectId: string): Promise<ProjectMemberRow[]> =>
  db.selectFrom('project_members as pm').innerJoin('auth_user as u', 'u.id', 'pm.account_id')
    .select(memberColumns)
    .where('pm.workspace_id', '=', workspaceId).where('pm.project_id', '=', projectId)
    .orderBy('pm.created_at').orderBy('pm.account_id').execute()

export const findProjectMember = (db: Executor, workspaceId: string, projectId: string, accountId: string) =>
  db.selectFrom('project_members as pm').innerJoin('auth_user as u', 'u.id', 'pm.account_id')
    .select(memberColumns)
    .where('pm.workspace_id', '=', workspaceId).where('pm.project_id', '=', projectId).where('pm.account_id', '=', accountId)
    .executeTakeFirst()

/** Inserts the membership unless it exists; true when it was inserted. */
export async function insertProjectMember(db: Executor, row: Tables['project_members']): Promise<boolean> {
  const inserted = await db.insertInto('project_members').values(row)
    .onConflict((oc) => oc.columns(['project_id', 'account_id']).doNothing())
    .returning('account_id').executeTakeFirst()
  return inserted !== undefined
}

export const updateProjectMemberRoles = (db: Executor, projectId: string, accountId: string, roles: {
  primary_role: Tables['project_members']['primary_role']; secondary_roles: string; updated_at: string
}) => db.updateTable('project_members').set(roles).where('project_id', '=', projectId).where('account_id', '=', accountId).execute()

export async function deleteProjectMember(db: Executor, workspaceId: string, projectId: string, accountId: string): Promise<boolean> {
  const result = await db.deleteFrom('project_members')
    .where('workspace_id', '=', workspaceId).where('project_id', '=', projectId).where('account_id', '=', accountId)
    .executeTakeFirst()
  return Number(result.numDeletedRows) > 0
}

export const deleteWorkspaceProjectMemberships = (db: Executor, workspaceId: string, accountId: string) =>
  db.deleteFrom('project_members').where('workspace_id', '=', workspaceId).where('account_id', '=', accountId).execute()

export const isWorkspaceMember = async (db: Executor, workspaceId: string, accountId: string) =>
  (await findWorkspaceMembership(db, workspaceId, accountId)) !== undefined

/** The workspace's active projects, for ranking a meeting's project suggestions. */
export const listActiveProjects = (db: Executor, workspaceId: string) =>
  db.selectFrom('projects').select(['id', 'name', 'objective', 'description'])
    .where('workspace_id', '=', workspaceId).where('status', '=', 'active').execute()
