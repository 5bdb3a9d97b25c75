// Kysely queries of invitations. Managers reach them by id within their workspace; outsiders only
// by token hash (the token is the permission).
import type { Kysely, Selectable, Transaction, Updateable } from 'kysely'
import { forUpdate } from '../../../platform/db/dialect.ts'
import type { DialectName } from '../../../platform/db/index.ts'
import type { InvitationTable, Tables } from '../../../platform/db/tables.ts'

export type Executor = Kysely<Tables> | Transaction<Tables>
export type InvitationRow = Selectable<InvitationTable>

export const insertInvitation = (db: Executor, row: InvitationRow) => db.insertInto('invitations').values(row).execute()

export const findInvitation = (db: Executor, workspaceId: string, invitationId: string): Promise<InvitationRow | undefined> =>
  db.selectFrom('invitations').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', invitationId).executeTakeFirst()

export const findInvitationForUpdate = (db: Executor, dialect: DialectName, workspaceId: string, invitationId: string) =>
  forUpdate(dialect, db.selectFrom('invitations').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', invitationId))
    .executeTakeFirst()

export const findInvitationByTokenHash = (db: Executor, tokenHash: string): Promise<InvitationRow | undefined> =>
  db.selectFrom('invitations').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst()

/** The newest usable invitation for an address, in any workspace. */
export const findPendingInvitationForEmail = (db: Executor, email: string, now: string): Promise<InvitationRow | undefined> =>
  db.selectFrom('invitations').selectAll()
    .where('email', '=', email).where('status', '=', 'pending').where('expires_at', '>', now)
    .orderBy('created_at', 'desc').orderBy('id', 'desc').executeTakeFirst()

export const findPendingInvitationInWorkspace = (db: Executor, workspaceId: string, email: string): Promise<InvitationRow | undefined> =>
  db.selectFrom('invitations').selectAll()
    .where('workspace_id', '=', workspaceId).where('email', '=', email).where('status', '=', 'pending').executeTakeFirst()

/** Pending invitations (expired ones included, so managers can resend them), newest first. */
export const listPendingInvitations = (db: Executor, workspaceId: string): Promise<InvitationRow[]> =>
  db.selectFrom('invitations').selectAll()
    .where('workspace_id', '=', workspaceId).where('status', '=', 'pending')
    .orderBy('created_at', 'desc').orderBy('id', 'desc').execute()

export const updateInvitation = (db: Executor, invitationId: string, changes: Updateable<InvitationTable>) =>
  db.updateTable('invitations').set(changes).where('id', '=', invitationId).execute()

/** Moves a pending invitation to accepted; false when another request used it first. */
export async function claimInvitation(db: Executor, invitationId: string, accountId: string, now: string): Promise<boolean> {
  const result = await db.updateTable('invitations').set({ status: 'accepted', accepted_at: now, accepted_by: accountId, updated_at: now })
    .where('id', '=', invitationId).where('status', '=', 'pending').executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}

/** The inviter as the invitation mail names them: their name, else their email. */
export const findAccountName = async (db: Executor, accountId: string) => {
  const row = await db.selectFrom('auth_user').select(['name', 'email']).where('id', '=', accountId).executeTakeFirst()
  return row ? row.name || row.email : undefined
}
