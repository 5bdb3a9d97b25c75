// The durable commit of audio chunks, grouped: chunks that arrive while a commit is running go
// together in the next one. Stage one makes their bytes durable (the blob store's putMany: the
// files side by side, each directory synced once per batch); stage two counts them in and inserts
// their rows in one transaction, each chunk under a savepoint of its own so that a duplicate or a
// session that stopped recording fails that chunk alone. A chunk is answered when its own stage two
// has committed: never before its bytes and its row are durable. The two stages overlap (one batch
// syncs its files while the previous one commits its rows).
import { randomBytes } from 'node:crypto'
import { sql } from 'kysely'
import type { AppDeps } from '../../platform/deps.ts'
import { isUniqueViolation } from '../../platform/db/dialect.ts'
import { createGroupCommitter, type GroupCommitter, type Outcome } from '../../platform/group-commit.ts'
import { AppError } from '../../platform/http/errors.ts'
import { sha256Hex } from '../../platform/ids.ts'
import { enqueue } from '../../platform/jobs/index.ts'
import type { Executor } from '../../platform/realtime/types.ts'
import { JOBS } from '../../domain/jobs.ts'
import * as repo from './repo.ts'
import { emitSessionUpdated } from './service.ts'

/** chunk-progress `session.updated` events are sent at most this often per session */
export const PROGRESS_EVENT_INTERVAL_MS = 5000

export type ChunkToCommit = {
  sessionId: string
  chunkId: string
  clientSequence: number | undefined
  contentType: string
  data: Uint8Array
}

type Stored = ChunkToCommit & { blobKey: string }

export type Committed = { duplicate: boolean; sequence: number }

type Committers = { bytes: GroupCommitter<Stored, void>; rows: GroupCommitter<Stored, Committed> }

const committers = new WeakMap<AppDeps, Committers>()

/** Stores the chunk's bytes and row durably (grouped with concurrent chunks); its sequence, or that it was a duplicate. */
export async function commitChunk(deps: AppDeps, chunk: ChunkToCommit): Promise<Committed> {
  let group = committers.get(deps)
  if (!group) {
    group = {
      // Files: a few batches at once (libuv runs four file-system calls side by side).
      bytes: createGroupCommitter((items) => storeBytes(deps, items), { inFlight: 3 }),
      rows: createGroupCommitter((items) => commitRows(deps, items)),
    }
    committers.set(deps, group)
  }
  // Bytes first, under a key of their own: a row never points at bytes that are not durable, and a
  // losing twin removes only its own copy. One directory per hour: a batch syncs one directory.
  const hour = new Date().toISOString().slice(0, 13)
  const stored: Stored = { ...chunk, blobKey: `audio/${hour}/${chunk.sessionId}.${randomBytes(12).toString('hex')}` }
  await group.bytes.submit(stored)
  try {
    const committed = await group.rows.submit(stored)
    if (committed.duplicate) await deps.blobs.delete(stored.blobKey).catch(() => {})
    return committed
  } catch (error) {
    await deps.blobs.delete(stored.blobKey).catch(() => {})
    throw error
  }
}

async function storeBytes(deps: AppDeps, items: Stored[]): Promise<Outcome<void>[]> {
  const entries = items.map((item) => ({ key: item.blobKey, data: item.data }))
  if (deps.blobs.putMany) await deps.blobs.putMany(entries)
  else await Promise.all(entries.map((entry) => deps.blobs.put(entry.key, entry.data)))
  return items.map(() => ({ ok: true, value: undefined }))
}

/** PostgreSQL: a batch's rows go in this many transactions at most, side by side on the pool. */
const POSTGRES_ROW_TRANSACTIONS = 4
const ROWS_PER_TRANSACTION = 16

async function commitRows(deps: AppDeps, items: Stored[]): Promise<Outcome<Committed>[]> {
  const outcomes: Outcome<Committed>[] = new Array(items.length)
  // Sessions' rows are locked in one order by every batch (of every node): no deadlock between batches.
  const order = items.map((_, index) => index).sort((a, b) => (items[a]!.sessionId < items[b]!.sessionId ? -1 : 1))
  // SQLite has one connection: one transaction. PostgreSQL: each statement is a round trip, so a
  // large batch is cut into consecutive slices of the order (disjoint sessions) committed at once.
  const slices = deps.database.dialect === 'postgres'
    ? Math.min(POSTGRES_ROW_TRANSACTIONS, Math.ceil(order.length / ROWS_PER_TRANSACTION)) : 1
  const size = Math.ceil(order.length / slices)
  await Promise.all(Array.from({ length: slices }, (_, slice) => order.slice(slice * size, (slice + 1) * size)).map((part) =>
    deps.database.db.transaction().execute(async (trx) => {
      for (const index of part) {
        await sql`savepoint chunk`.execute(trx)
        try {
          outcomes[index] = { ok: true, value: await commitRow(deps, trx, items[index]!) }
          await sql`release savepoint chunk`.execute(trx)
        } catch (error) {
          await sql`rollback to savepoint chunk`.execute(trx)
          await sql`release savepoint chunk`.execute(trx)
          outcomes[index] = { ok: false, error: chunkError(error, items[index]!) }
        }
      }
    }).catch((error: unknown) => {
      for (const index of part) outcomes[index] = { ok: false, error }
    })))
  // The twin that committed first answers a duplicate with its sequence.
  for (const [index, outcome] of outcomes.entries()) {
    if (!outcome.ok && outcome.error === DUPLICATE) {
      const item = items[index]!
      const twin = await repo.findChunk(deps.database.db, item.sessionId, item.chunkId)
      outcomes[index] = twin ? { ok: true, value: { duplicate: true, sequence: Number(twin.sequence) } } : { ok: false, error: new Error('duplicate chunk vanished') }
    }
  }
  return outcomes
}

/** thrown inside a chunk's savepoint to roll it back when a twin committed first */
const DUPLICATE = Symbol('duplicate chunk')

async function commitRow(deps: AppDeps, trx: Executor, item: Stored): Promise<Committed> {
  const now = new Date()
  const nowText = now.toISOString()
  const progressBefore = new Date(now.getTime() - PROGRESS_EVENT_INTERVAL_MS).toISOString()
  const session = await repo.countChunkIn(trx, item.sessionId, item.data.byteLength, item.clientSequence, progressBefore, nowText)
  if (!session) {
    const state = await trx.selectFrom('capture_sessions').select('state').where('id', '=', item.sessionId).executeTakeFirstOrThrow()
    throw notRecording(state.state)
  }
  const sequence = item.clientSequence ?? session.last_sequence
  const inserted = await repo.insertChunk(trx, {
    session_id: item.sessionId, chunk_id: item.chunkId, sequence, content_type: item.contentType,
    byte_size: item.data.byteLength, sha256: sha256Hex(item.data), blob_key: item.blobKey, received_at: nowText,
  })
  if (!inserted) throw DUPLICATE
  // With a server engine, the new audio is transcribed in the background (one pending job per session).
  if (deps.speech.engine) await enqueue(trx, JOBS.transcribe, { sessionId: item.sessionId }, { dedupeKey: item.sessionId })
  if (session.progress_event_at === nowText) await emitSessionUpdated(deps, trx, session)
  return { duplicate: false, sequence }
}

function chunkError(error: unknown, item: Stored): unknown {
  if (isUniqueViolation(error)) {
    return new AppError('conflict', `Another chunk of this session already has sequence ${item.clientSequence}.`, { extra: { sequence: item.clientSequence } })
  }
  return error
}

export const notRecording = (state: string) =>
  new AppError('conflict', `The session is not recording (it is ${state}); it takes no more audio.`, { extra: { state } })
