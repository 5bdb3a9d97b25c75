// Kysely queries of notifications. Every query is scoped to (recipient, workspace).
import { sql, type Kysely, type Transaction } from 'kysely'
import type { Tables } from '../../platform/db/tables.ts'

export type Executor = Kysely<Tables> | Transaction<Tables>
export type NotificationRow = Tables['notifications'] & { actor_name: string | null }

export const insertNotification = (db: Executor, row: Tables['notifications']) =>
  db.insertInto('notifications').values(row).execute()

export function listNotifications(db: Executor, scope: { workspaceId: string; accountId: string }, filter: {
  unreadOnly: boolean; beforeId: string | undefined; limit: number
}): Promise<NotificationRow[]> {
  let query = db.selectFrom('notifications as n')
    .leftJoin('auth_user as u', 'u.id', 'n.actor_account_id')
    // The actor as colleagues see them: their name, else their email.
    .selectAll('n').select(sql<string | null>`coalesce(nullif(u.name, ''), u.email)`.as('actor_name'))
    .where('n.recipient_account_id', '=', scope.accountId).where('n.workspace_id', '=', scope.workspaceId)
  if (filter.unreadOnly) query = query.where('n.read_at', 'is', null)
  if (filter.beforeId !== undefined) query = query.where('n.id', '<', filter.beforeId)
  // Ids are ULIDs: descending id is newest first.
  return query.orderBy('n.id', 'desc').limit(filter.limit + 1).execute()
}

export async function countUnread(db: Executor, scope: { workspaceId: string; accountId: string }): Promise<number> {
  const row = await db.selectFrom('notifications').select(sql<number>`count(*)`.as('count'))
    .where('recipient_account_id', '=', scope.accountId).where('workspace_id', '=', scope.workspaceId)
    .where('read_at', 'is', null).executeTakeFirst()
  return Number(row?.count ?? 0)
}

/** Marks unread notifications read: all of the recipient's, or those among `ids`. Returns how many changed. */
export async function markRead(db: Executor, scope: { workspaceId: string; accountId: string }, ids: string[] | 'all', now: string) {
  let query = db.updateTable('notifications').set({ read_at: now })
    .where('recipient_account_id', '=', scope.accountId).where('workspace_id', '=', scope.workspaceId)
    .where('read_at', 'is', null)
  if (ids !== 'all') query = query.where('id', 'in', ids)
  const result = await query.executeTakeFirst()
  return Number(result.numUpdatedRows)
}

export async function accountName(db: Executor, accountId: string): Promise<string | null> {
  const row = await db.selectFrom('auth_user').select(['name', 'email']).where('id', '=', accountId).executeTakeFirst()
  return row ? row.name || row.email : null
}
