// Group commit of whole transactions, per key (a conversation), for PostgreSQL. Bodies that arrive
// while the key's batches run wait and run next, one after another in one shared transaction, each
// under a savepoint of its own; the transaction commits once. A body that throws (a stale guard, a
// 404) rolls back its savepoint and answers its own caller alone. Every caller is answered after
// the shared commit, so nothing is acknowledged (or published: NOTIFY is delivered at commit)
// before it is durable. A lone body runs in its own transaction, as without batching.
//
// The rows every body of a key needs (a conversation's event counter, its work set) are held from
// their first use until commit. A body hands the part that takes them to `afterBodies`: it runs
// once for the whole batch after every body, so those rows are held for a few statements and one
// commit per batch. Meanwhile the key's next batches run their bodies (a few batches at once).
//
// A batch that fails before its commit (a deadlock, or a deferred part's error) committed nothing:
// each body runs again alone, and answers as it would have without batching. A deadlock or
// serialization failure is never a caller's answer: what it rolled back runs again alone.
import { sql, type Transaction } from 'kysely'
import { createKeyedGroupCommitter, type Outcome } from '../group-commit.ts'
import type { Executor } from '../realtime/types.ts'
import { isRetryable } from './dialect.ts'
import type { Database } from './index.ts'
import type { Tables } from './tables.ts'

export type Body<R> = (trx: Transaction<Tables>) => Promise<R>

export type SharedTransactions = {
  /** Runs `body` in a transaction shared with concurrent bodies of the same key; bodies run in `order`. */
  run<R>(key: string, order: string, body: Body<R>): Promise<R>
}

type Work = { order: string; body: Body<unknown> }

/**
 * Each body takes a savepoint's subtransaction id; past 64 in one transaction PostgreSQL's
 * snapshots overflow to pg_subtrans (slower for every reader), and long batches leave the other
 * batches of the key idle: a few short batches side by side did best (bench/README.md).
 */
const MAX_BATCH = 16
/** batches of one key at once (each holds a pooled connection) */
const IN_FLIGHT = 3
/** A deadlocked body runs alone at most this many times more. */
const RETRIES = 3

type Deferred = { runAll: (items: never[]) => Promise<void>; item: unknown }
const deferred = new WeakMap<object, Deferred[]>()

/**
 * In a body of a shared transaction: `item` is handed to `runAll` after every body of the batch
 * has run (before the commit), together with the items other bodies gave the same `runAll`, in the
 * order of the bodies; a failed body's items are dropped. Anywhere else: `runAll([item])` now.
 */
export async function afterBodies<T>(trx: Executor, runAll: (items: T[]) => Promise<void>, item: T): Promise<void> {
  const parts = deferred.get(trx)
  if (parts) parts.push({ runAll, item })
  else await runAll([item])
}

/** Runs the deferred items, one `runAll` call per function, in the order each was first given. */
async function runDeferred(parts: Deferred[]) {
  const groups = new Map<Deferred['runAll'], unknown[]>()
  for (const part of parts) {
    const items = groups.get(part.runAll)
    if (items) items.push(part.item)
    else groups.set(part.runAll, [part.item])
  }
  for (const [runAll, items] of groups) await runAll(items as never[])
}

/**
 * Bodies of a batch run sorted by `order` (stably): a body locks its own row first (a work object,
 * `order` being its id), so batches of a key take those rows in one order and never wait for each
 * other's; they take the shared rows only in their deferred part, after.
 */
export function createSharedTransactions(database: Database): SharedTransactions {
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

  const together = async (works: Work[]): Promise<Outcome<unknown>[]> => {
    const outcomes: Outcome<unknown>[] = []
    let committing = false
    try {
      await database.db.transaction().execute(async (trx) => {
        const parts: Deferred[] = []
        deferred.set(trx, parts)
        for (const work of works) {
          const mark = parts.length
          // Same-named savepoints stack in PostgreSQL: rolling back to `body` undoes this body only.
          await sql`savepoint body`.execute(trx)
          try {
            outcomes.push({ ok: true, value: await work.body(trx) })
          } catch (error) {
            await sql`rollback to savepoint body`.execute(trx)
            parts.length = mark
            outcomes.push({ ok: false, error })
          }
        }
        deferred.delete(trx)
        await runDeferred(parts)
        committing = true
      })
    } catch (error) {
      // A failed commit may or may not have been durable: only a retryable one surely was not.
      if (committing && !isRetryable(error)) throw error
      return Promise.all(works.map((work) => settle(alone(work.body))))
    }
    return Promise.all(outcomes.map((outcome, index) =>
      !outcome.ok && isRetryable(outcome.error) ? settle(alone(works[index]!.body)) : outcome))
  }

  const flush = async (_key: string, arrived: Work[]): Promise<Outcome<unknown>[]> => {
    if (arrived.length === 1) return [await settle(alone(arrived[0]!.body))]
    const works = arrived.toSorted((a, b) => (a.order < b.order ? -1 : a.order > b.order ? 1 : 0))
    const outcomes = await together(works)
    const answers = new Map(works.map((work, index) => [work, outcomes[index]!]))
    return arrived.map((work) => answers.get(work)!)
  }

  const committer = createKeyedGroupCommitter(flush, { maxBatch: MAX_BATCH, inFlight: IN_FLIGHT })
  return {
    run: <R>(key: string, order: string, body: Body<R>) => committer.submit(key, { order, body }) as Promise<R>,
  }
}

async function settle<R>(promise: Promise<R>): Promise<Outcome<R>> {
  try {
    return { ok: true, value: await promise }
  } catch (error) {
    return { ok: false, error }
  }
}
