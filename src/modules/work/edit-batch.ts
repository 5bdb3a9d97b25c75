// Edits of one conversation's work objects are group-committed on PostgreSQL: every edit logs its
// events under the conversation's event counter row and bumps its work set's row, each held until
// commit, so edits of one conversation waited one WAL flush each. Edits that arrive while one
// commits now share the next transaction (platform/db/shared-transaction.ts: a savepoint each, one
// commit, each answered after it). A batch runs its edits sorted by object id and takes the rows
// all of them share once, after them (record.ts, `afterBodies`). SQLite (one writer, no flush per
// commit) runs each edit in its own transaction as before.
import type { Transaction } from 'kysely'
import type { AppDeps } from '../../platform/deps.ts'
import type { Tables } from '../../platform/db/tables.ts'
import { createSharedTransactions, type SharedTransactions } from '../../platform/db/shared-transaction.ts'
import * as repo from './repo.ts'

/** objects whose conversation is remembered per node (the map is emptied when it is full) */
const REMEMBERED_OBJECTS = 10_000

type Batching = { transactions: SharedTransactions; conversations: Map<string, string> }
const batching = new WeakMap<AppDeps, Batching>()

/** Runs an edit of one work object in a transaction (shared with concurrent edits of its conversation on PostgreSQL). */
export async function inEditTransaction<R>(deps: AppDeps, workspaceId: string, workObjectId: string, body: (trx: Transaction<Tables>) => Promise<R>): Promise<R> {
  const { database } = deps
  if (database.dialect !== 'postgres') return database.db.transaction().execute(body)
  let state = batching.get(deps)
  if (!state) {
    state = { transactions: createSharedTransactions(database), conversations: new Map() }
    batching.set(deps, state)
  }
  const cacheKey = `${workspaceId}:${workObjectId}`
  let conversationId = state.conversations.get(cacheKey)
  if (!conversationId) {
    conversationId = await repo.objectConversation(database.db, workspaceId, workObjectId)
    // Not in this workspace: the body answers its 404 alone.
    if (!conversationId) return database.db.transaction().execute(body)
    if (state.conversations.size >= REMEMBERED_OBJECTS) state.conversations.clear()
    state.conversations.set(cacheKey, conversationId)
  }
  return state.transactions.run(conversationId, workObjectId, body)
}
