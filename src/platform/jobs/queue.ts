// The durable queue: one `jobs` table on either database. A job is claimed by flipping it to
// `running` with a lease (`locked_until`); a worker that dies loses its lease and another node
// claims the job again. Completions are fenced by (node, attempt), so a worker whose lease expired
// cannot overwrite the outcome of the run that replaced it.
import { EventEmitter } from 'node:events'
import { sql, type UpdateQueryBuilder, type UpdateResult } from 'kysely'
import { monotonicFactory } from 'ulid'
import type { Database } from '../db/index.ts'
import type { JobTable, Tables } from '../db/tables.ts'
import { nowIso } from '../ids.ts'
import type { Executor } from '../realtime/types.ts'
import { definedJobNames, jobDefinition } from './registry.ts'

export type JobRow = Omit<JobTable, 'attempts'> & { attempts: number }

export type EnqueueOptions = {
  /** not before this time (default now) */
  runAt?: Date
  /** while a job with this name and key is queued or running, enqueueing another is a no-op */
  dedupeKey?: string
  /**
   * false: when deduplicated, answer this call's unused id instead of reading the pending job's
   * (saves a round trip in transactions that hold contended locks and do not need the id)
   */
  findPending?: boolean
}

const nextUlid = monotonicFactory()
const ERROR_TEXT_LIMIT = 4000

/** In-process hint that work is waiting, so a local worker need not wait for its next poll. */
export const enqueueHints = new EventEmitter()
enqueueHints.setMaxListeners(0)

/**
 * Adds a job. Pass the caller's transaction to enqueue atomically with the change that needs the
 * work: if the transaction rolls back, no job exists.
 */
export async function enqueue(executor: Executor, name: string, payload: unknown, options: EnqueueOptions = {}) {
  const definition = jobDefinition(name)
  if (!definition) throw new Error(`no job named ${name} is defined`)
  const now = nowIso()
  const id = `job_${nextUlid()}`
  const result = await executor.insertInto('jobs').values({
    id, name, payload: JSON.stringify(payload ?? null), state: 'queued', attempts: 0,
    max_attempts: definition.maxAttempts, run_at: (options.runAt ?? new Date()).toISOString(),
    locked_by: null, locked_until: null, last_error: null, dedupe_key: options.dedupeKey ?? null,
    created_at: now, updated_at: now, finished_at: null,
  }).onConflict((oc) => oc.doNothing()).executeTakeFirst()
  setImmediate(() => enqueueHints.emit('enqueued', name))
  if (Number(result.numInsertedOrUpdatedRows ?? 0n) > 0) return { id, enqueued: true }
  if (options.findPending === false) return { id, enqueued: false }
  const pending = await executor.selectFrom('jobs').select('id').where('name', '=', name)
    .where('dedupe_key', '=', options.dedupeKey ?? '').where('state', 'in', ['queued', 'running']).executeTakeFirst()
  return { id: pending?.id ?? id, enqueued: false }
}

/**
 * Claims up to `limit` due jobs of the kinds this process defines: queued ones whose time has
 * come, and running ones whose lease expired (their worker died). On PostgreSQL the candidates
 * are locked with FOR UPDATE SKIP LOCKED, so concurrent nodes never claim the same row; on SQLite
 * the single UPDATE statement holds the write lock.
 */
export async function claimJobs(database: Database, nodeId: string, limit: number, visibilityTimeoutMs: number): Promise<JobRow[]> {
  const names = definedJobNames()
  if (names.length === 0 || limit <= 0) return []
  const now = new Date()
  const nowText = now.toISOString()
  const candidates = database.db.selectFrom('jobs').select('id')
    .where('name', 'in', names)
    .where((eb) => eb.or([
      eb.and([eb('state', '=', 'queued'), eb('run_at', '<=', nowText)]),
      eb.and([eb('state', '=', 'running'), eb('locked_until', '<=', nowText)]),
    ]))
    .orderBy('run_at').orderBy('id').limit(limit)
  const locked = database.dialect === 'postgres' ? candidates.forUpdate().skipLocked() : candidates
  const rows = await database.db.updateTable('jobs')
    .set({
      state: 'running', attempts: sql<number>`attempts + 1`, locked_by: nodeId,
      locked_until: new Date(now.getTime() + visibilityTimeoutMs).toISOString(), updated_at: nowText,
    })
    .where('id', 'in', locked)
    .returningAll().execute()
  return rows.map((row) => ({ ...row, attempts: Number(row.attempts), max_attempts: Number(row.max_attempts) }))
}

type JobUpdate = UpdateQueryBuilder<Tables, 'jobs', 'jobs', UpdateResult>

/** Only the run that holds the lease (same node, same attempt) may change a running job. */
const fenced = (job: JobRow) => (query: JobUpdate) => query
  .where('id', '=', job.id).where('state', '=', 'running')
  .where('locked_by', '=', job.locked_by).where('attempts', '=', job.attempts)

/** Extends the lease of a running job; false when the lease was lost to another worker. */
export async function extendLease(database: Database, job: JobRow, visibilityTimeoutMs: number): Promise<boolean> {
  const result = await fenced(job)(database.db.updateTable('jobs'))
    .set({ locked_until: new Date(Date.now() + visibilityTimeoutMs).toISOString() })
    .executeTakeFirst()
  return Number(result.numUpdatedRows) > 0
}

export async function completeJob(database: Database, job: JobRow): Promise<boolean> {
  const now = nowIso()
  const result = await fenced(job)(database.db.updateTable('jobs'))
    .set({ state: 'succeeded', finished_at: now, updated_at: now, locked_until: null, last_error: null })
    .executeTakeFirst()
  return Number(result.numUpdatedRows) > 0
}

/** Puts a failed job back with a delay, or dead-letters it when it has no attempts left. */
export async function failJob(executor: Executor, job: JobRow, error: string, retryInMs: number | undefined) {
  const now = new Date()
  const values = retryInMs === undefined
    ? { state: 'dead' as const, finished_at: now.toISOString() }
    : { state: 'queued' as const, run_at: new Date(now.getTime() + retryInMs).toISOString() }
  const result = await fenced(job)(executor.updateTable('jobs'))
    .set({ ...values, last_error: error.slice(0, ERROR_TEXT_LIMIT), locked_until: null, updated_at: now.toISOString() })
    .executeTakeFirst()
  return Number(result.numUpdatedRows) > 0
}

/** Succeeded jobs are kept a while for operators, then removed. Dead ones stay until handled. */
export async function pruneSucceeded(database: Database, olderThan: Date) {
  await database.db.deleteFrom('jobs').where('state', '=', 'succeeded').where('finished_at', '<', olderThan.toISOString()).execute()
}

export function describeError(error: unknown): string {
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`
  return String(error)
}
