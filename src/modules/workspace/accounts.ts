// Queries behind the account module (exported through index.ts): an account's settings row
// (active workspace, locale, time zone, avatar), its memberships, and a workspace created at bootstrap.
import type { Db, DialectName } from '../../platform/db/index.ts'
import { forUpdate } from '../../platform/db/dialect.ts'
import { prepared } from '../../platform/db/prepared.ts'
import type { Tables } from '../../platform/db/tables.ts'
import type { Kysely, Transaction } from 'kysely'

type Executor = Db | Kysely<Tables> | Transaction<Tables>

const userWithSettings = prepared((db: Kysely<Tables>, accountId: string) =>
  db.selectFrom('auth_user as u').leftJoin('account_settings as s', 's.account_id', 'u.id')
    .select(['u.id', 'u.email', 'u.name', 'u.emailVerified', 'u.createdAt', 's.locale', 's.timezone',
      's.avatar_asset_id', 's.active_workspace_id'])
    .where('u.id', '=', accountId))

/** The account with its settings (null columns when it has none yet). */
export async function findUserWithSettings(db: Executor, accountId: string) {
  const [row] = await userWithSettings(db, accountId)
  if (!row) throw new Error(`account ${accountId} vanished`)
  return row
}

export const findSettings = (db: Executor, accountId: string) =>
  db.selectFrom('account_settings').selectAll().where('account_id', '=', accountId).executeTakeFirst()

/** Creates the settings row if missing; the primary key serialises concurrent first bootstraps. */
export async function ensureSettings(db: Executor, accountId: string, now: string) {
  await db.insertInto('account_settings').values({
    account_id: accountId, active_workspace_id: null, locale: null, timezone: null,
    avatar_asset_id: null, created_at: now, updated_at: now,
  }).onConflict((oc) => oc.column('account_id').doNothing()).execute()
}

export const updateSettings = (db: Executor, accountId: string, values: Partial<Tables['account_settings']>) =>
  db.updateTable('account_settings').set(values).where('account_id', '=', accountId).execute()

export const findMembership = (db: Executor, accountId: string, workspaceId: string) =>
  db.selectFrom('workspace_members').selectAll()
    .where('account_id', '=', accountId).where('workspace_id', '=', workspaceId).executeTakeFirst()

export const listMemberships = prepared((db: Kysely<Tables>, accountId: string) =>
  db.selectFrom('workspace_members as m').innerJoin('workspaces as w', 'w.id', 'm.workspace_id')
    .select(['w.id', 'w.name', 'w.created_at', 'w.created_by', 'w.updated_at', 'm.workspace_id', 'm.account_id',
      'm.access_role', 'm.content_permission', 'm.job_role', 'm.created_at as joined_at', 'm.updated_at as member_updated_at'])
    .where('m.account_id', '=', accountId).orderBy('m.created_at', 'desc').orderBy('w.id', 'desc'))

export const insertWorkspace = (db: Executor, row: Tables['workspaces']) => db.insertInto('workspaces').values(row).execute()

export const insertMembership = (db: Executor, row: Tables['workspace_members']) =>
  db.insertInto('workspace_members').values(row).onConflict((oc) => oc.columns(['workspace_id', 'account_id']).doNothing()).execute()

/** Locks the account's settings row: serialises concurrent bootstraps of one account. */
export const lockSettings = (dialect: DialectName, db: Executor, accountId: string) =>
  forUpdate(dialect, db.selectFrom('account_settings').select('account_id').where('account_id', '=', accountId)).execute()
