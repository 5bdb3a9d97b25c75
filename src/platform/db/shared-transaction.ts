// Group commit of whole transactions, per key (a conversation), for PostgreSQL: transaction bodies
// that arrive while the key's previous batch commits run next, one after another in one shared
// transaction, each under a savepoint of its own, and commit once. A body that throws (a stale
// guard, a 404) rolls back its savepoint and answers its own caller alone; every caller is
// answered after the shared commit, so nothing is acknowledged (or published: NOTIFY is delivered
// at commit) before it is durable. A lone body runs in its own transaction, as without batching.
// A deadlock or serialization failure (of one body, or of the batch) is never the caller's
// answer: what it rolled back runs again alone (nothing of it committed).
import { sql, type Transaction } from 'kysely'
import { createKeyedGroupCommitter, type Outcome } from '../group-commit.ts'
import { isRetryable } from './dialect.ts'
import type { Database } from './index.ts'
import type { Tables } from './tables.ts'

export type Body<R> = (trx: Transaction<Tables>) => Promise<R>

export type SharedTransactions = {
  /** Runs `body` in a transaction shared with concurrent bodies of the same key; `tag` is handed to `prepare`. */
  run<R>(key: string, tag: string, body: Body<R>): Promise<R>
}

type Work = { tag: string; body: Body<unknown> }

/**
 * Each body takes savepoints' subtransaction ids: past 64 in one transaction PostgreSQL's snapshots
 * overflow to pg_subtrans (slower for every reader), so batches stay below that.
 */
const MAX_BATCH = 48
/** A deadlocked body runs alone at most this many times more. */
const RETRIES = 3

/**
 * `prepare` runs first in a shared transaction (of two bodies or more) with the batch's tags: it
 * takes the row locks the bodies will need before any shared row, in one order, so that a batch
 * never waits for a row while holding what others wait for.
 */
export function createSharedTransactions(database: Database, prepare?: (trx: Transaction<Tables>, tags: string[]) => Promise<void>): SharedTransactions {
  const alone = async <R>(body: Body<R>): Promise<R> => {
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await database.db.transaction().execute(body)
      } catch (error) {
        if (!isRetryable(error) || attempt >= RETRIES) throw error
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * (attempt + 1)))
      }
    }
  }

  const flush = async (_key: string, works: Work[]): Promise<Outcome<unknown>[]> => {
    if (works.length === 1) return [await settle(alone(works[0]!.body))]
    const outcomes: Outcome<unknown>[] = []
    try {
      await database.db.transaction().execute(async (trx) => {
        await prepare?.(trx, works.map((work) => work.tag))
        for (const work of works) {
          // Same-named savepoints stack in PostgreSQL: rolling back to `body` undoes this body only.
          await sql`savepoint body`.execute(trx)
          try {
            outcomes.push({ ok: true, value: await work.body(trx) })
          } catch (error) {
            await sql`rollback to savepoint body`.execute(trx)
            outcomes.push({ ok: false, error })
          }
        }
      })
    } catch (error) {
      // Nothing of the batch committed: a deadlock or serialization failure is run again, alone.
      if (!isRetryable(error)) throw error
      return Promise.all(works.map((work) => settle(alone(work.body))))
    }
    return Promise.all(outcomes.map((outcome, index) =>
      !outcome.ok && isRetryable(outcome.error) ? settle(alone(works[index]!.body)) : outcome))
  }

  const committer = createKeyedGroupCommitter(flush, { maxBatch: MAX_BATCH })
  return {
    run: <R>(key: string, tag: string, body: Body<R>) => committer.submit(key, { tag, body }) as Promise<R>,
  }
}

async function settle<R>(promise: Promise<R>): Promise<Outcome<R>> {
  try {
    return { ok: true, value: await promise }
  } catch (error) {
    return { ok: false, error }
  }
}
