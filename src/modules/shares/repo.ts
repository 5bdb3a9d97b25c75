// Kysely queries of share links.
import type { Insertable, Selectable, Updateable } from 'kysely'
import type { Db } from '../../platform/db/index.ts'
import type { SessionShareTable } from '../../platform/db/tables.ts'
import type { Executor } from '../../platform/realtime/types.ts'

export type ShareRow = Selectable<SessionShareTable>

export const findLiveShare = (db: Db | Executor, sessionId: string) =>
  db.selectFrom('session_shares').selectAll().where('session_id', '=', sessionId).where('revoked_at', 'is', null).executeTakeFirst()

export const findShareByTokenHash = (db: Db | Executor, hash: string) =>
  db.selectFrom('session_shares').selectAll().where('token_hash', '=', hash).executeTakeFirst()

/** Inserts the share; false when another live share of the session won the race. */
export async function insertShare(db: Db | Executor, row: Insertable<SessionShareTable>): Promise<boolean> {
  const result = await db.insertInto('session_shares').values(row)
    .onConflict((oc) => oc.column('session_id').where('revoked_at', 'is', null).doNothing())
    .executeTakeFirst()
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1
}

export async function updateShare(db: Db | Executor, id: string, changes: Updateable<SessionShareTable>) {
  await db.updateTable('session_shares').set(changes).where('id', '=', id).where('revoked_at', 'is', null).execute()
}
