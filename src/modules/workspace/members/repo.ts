// Kysely queries of workspace members. Every query is scoped to a workspace id.
import type { Kysely, Transaction } from 'kysely'
import { forUpdate } from '../../../platform/db/dialect.ts'
import type { DialectName } from '../../../platform/db/index.ts'
import type { Tables } from '../../../platform/db/tables.ts'

export type Executor = Kysely<Tables> | Transaction<Tables>

const memberQuery = (db: Executor, workspaceId: string) => db.selectFrom('workspace_members as m')
  .innerJoin('auth_user as u', 'u.id', 'm.account_id')
  .leftJoin('account_settings as s', 's.account_id', 'm.account_id')
  .select(['m.workspace_id', 'm.account_id', 'm.access_role', 'm.content_permission', 'm.job_role', 'm.created_at', 'm.updated_at',
    'u.name', 'u.email', 's.avatar_asset_id'])
  .where('m.workspace_id', '=', workspaceId)

export type MemberRow = Awaited<ReturnType<typeof findMember>> & {}

export const listMembers = (db: Executor, workspaceId: string) =>
  memberQuery(db, workspaceId).orderBy('m.created_at').orderBy('m.account_id').execute()

export const findMember = (db: Executor, workspaceId: string, accountId: string) =>
  memberQuery(db, workspaceId).where('m.account_id', '=', accountId).executeTakeFirst()

export const findMemberByEmail = (db: Executor, workspaceId: string, email: string) =>
  db.selectFrom('workspace_members as m').innerJoin('auth_user as u', 'u.id', 'm.account_id')
    .select('m.account_id').where('m.workspace_id', '=', workspaceId).where('u.email', '=', email).executeTakeFirst()

export const findWorkspace = (db: Executor, workspaceId: string) =>
  db.selectFrom('workspaces').select(['id', 'name']).where('id', '=', workspaceId).executeTakeFirst()

/** Serialises membership changes of one workspace for the rest of the transaction (the last-owner rule). */
export const lockWorkspace = (db: Executor, dialect: DialectName, workspaceId: string) =>
  forUpdate(dialect, db.selectFrom('workspaces').select('id').where('id', '=', workspaceId)).executeTakeFirst()

export async function countOwners(db: Executor, workspaceId: string): Promise<number> {
  const rows = await db.selectFrom('workspace_members').select('account_id')
    .where('workspace_id', '=', workspaceId).where('access_role', '=', 'owner').execute()
  return rows.length
}

export const insertMembership = (db: Executor, row: Tables['workspace_members']) =>
  db.insertInto('workspace_members').values(row).onConflict((oc) => oc.columns(['workspace_id', 'account_id']).doNothing()).execute()

export const updateMembership = (db: Executor, workspaceId: string, accountId: string, changes: Partial<Tables['workspace_members']>) =>
  db.updateTable('workspace_members').set(changes).where('workspace_id', '=', workspaceId).where('account_id', '=', accountId).execute()

export const deleteMembership = (db: Executor, workspaceId: string, accountId: string) =>
  db.deleteFrom('workspace_members').where('workspace_id', '=', workspaceId).where('account_id', '=', accountId).execute()

// The active workspace is tenancy state (DESIGN §4) kept on the account's settings row.

/** Makes `workspaceId` the account's active workspace, creating its settings row if needed. */
export const rememberActiveWorkspace = (db: Executor, accountId: string, workspaceId: string, now: string) =>
  db.insertInto('account_settings').values({
    account_id: accountId, active_workspace_id: workspaceId, locale: null, timezone: null,
    avatar_asset_id: null, created_at: now, updated_at: now,
  }).onConflict((oc) => oc.column('account_id').doUpdateSet({ active_workspace_id: workspaceId, updated_at: now })).execute()

/** A removed member's next bootstrap picks another workspace. */
export const forgetActiveWorkspace = (db: Executor, accountId: string, workspaceId: string, now: string) =>
  db.updateTable('account_settings').set({ active_workspace_id: null, updated_at: now })
    .where('account_id', '=', accountId).where('active_workspace_id', '=', workspaceId).execute()
