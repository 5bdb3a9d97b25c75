// Durable audio ingestion. A chunk is acknowledged only after its bytes are durable in the blob
// store and its row is committed; the (session, chunk id) key makes a repeated chunk — also one
// racing its twin — store nothing and answer `duplicate: true`.
import { randomBytes } from 'node:crypto'
import type { AppDeps } from '../../platform/deps.ts'
import type { Actor } from '../../platform/auth/actor.ts'
import { isUniqueViolation } from '../../platform/db/dialect.ts'
import { AppError, badRequest, notFound } from '../../platform/http/errors.ts'
import { decodeCursor, paginate } from '../../platform/http/pagination.ts'
import { sha256Hex } from '../../platform/ids.ts'
import { enqueue } from '../../platform/jobs/index.ts'
import { assertAudioBytes, chunkBytes, parseAudioContentType } from './content-type.ts'
import { canUploadAudio } from './policy.ts'
import { presentChunk } from './presenter.ts'
import * as repo from './repo.ts'
import { emitSessionUpdated } from './service.ts'
import { JOBS } from '../../domain/jobs.ts'

/** chunk-progress `session.updated` events are sent at most this often per session */
export const PROGRESS_EVENT_INTERVAL_MS = 5000

const CHUNK_ID_PATTERN = /^[\x21-\x7e]{1,128}$/
const SEQUENCE_PATTERN = /^\d{1,9}$/

export type ChunkUpload = {
  chunkId: string | string[] | undefined
  sequence: string | string[] | undefined
  contentType: string | undefined
  body: unknown
}

/** thrown inside the transaction to roll it back when a concurrent twin committed first */
const DUPLICATE = Symbol('duplicate chunk')

const workspaceOf = (actor: Actor) => {
  if (!actor.membership) throw new AppError('no_workspace', 'No active workspace: call POST /v1/account/bootstrap first.')
  return actor.membership.workspaceId
}

function readChunkHeaders(upload: ChunkUpload) {
  const { chunkId, sequence } = upload
  if (chunkId === undefined) throw new AppError('missing_header', 'X-Service-Chunk-ID is required: a client-chosen id that makes retries safe.')
  if (typeof chunkId !== 'string' || !CHUNK_ID_PATTERN.test(chunkId)) {
    throw badRequest('X-Service-Chunk-ID', 'format', 'X-Service-Chunk-ID must be 1–128 visible ASCII characters')
  }
  if (sequence !== undefined && (typeof sequence !== 'string' || !SEQUENCE_PATTERN.test(sequence))) {
    throw badRequest('X-Service-Chunk-Sequence', 'format', 'X-Service-Chunk-Sequence must be a whole number from 0 to 999999999')
  }
  return { chunkId, sequence: sequence === undefined ? undefined : Number(sequence) }
}

export async function ingestChunk(deps: AppDeps, actor: Actor, sessionId: string, upload: ChunkUpload) {
  const workspaceId = workspaceOf(actor)
  const { chunkId, sequence: clientSequence } = readChunkHeaders(upload)
  const format = parseAudioContentType(upload.contentType)
  const data = chunkBytes(upload.body, format)
  await assertAudioBytes(format, data)
  const { db } = deps.database

  const known = await repo.findSessionWithChunk(db, workspaceId, sessionId, chunkId) ?? notFound('session', sessionId)
  if (!canUploadAudio(actor.accountId, known)) throw new AppError('forbidden', 'Only the account recording this session sends its audio.')
  if (known.chunk_sequence !== null) return { accepted: true as const, chunkId, duplicate: true, sequence: Number(known.chunk_sequence) }
  if (known.state !== 'recording') throw notRecording(known.state)

  // Bytes first, under a key of their own: a row never points at bytes that are not durable, and a
  // losing twin removes only its own copy.
  const blobKey = `audio/${sessionId}/${randomBytes(12).toString('hex')}`
  await deps.blobs.put(blobKey, data)
  try {
    const sequence = await db.transaction().execute(async (trx) => {
      const now = new Date()
      const nowText = now.toISOString()
      const progressBefore = new Date(now.getTime() - PROGRESS_EVENT_INTERVAL_MS).toISOString()
      const session = await repo.countChunkIn(trx, sessionId, data.byteLength, clientSequence, progressBefore, nowText)
      if (!session) {
        const state = await trx.selectFrom('capture_sessions').select('state').where('id', '=', sessionId).executeTakeFirstOrThrow()
        throw notRecording(state.state)
      }
      const sequence = clientSequence ?? session.last_sequence
      const inserted = await repo.insertChunk(trx, {
        session_id: sessionId, chunk_id: chunkId, sequence, content_type: format.contentType,
        byte_size: data.byteLength, sha256: sha256Hex(data), blob_key: blobKey, received_at: nowText,
      })
      if (!inserted) throw DUPLICATE
      // With a server engine, the new audio is transcribed in the background (one pending job per session).
      if (deps.speech.engine) await enqueue(trx, JOBS.transcribe, { sessionId }, { dedupeKey: sessionId })
      if (session.progress_event_at === nowText) await emitSessionUpdated(deps, trx, session)
      return sequence
    })
    return { accepted: true as const, chunkId, duplicate: false, sequence }
  } catch (error) {
    await deps.blobs.delete(blobKey).catch(() => {})
    if (error === DUPLICATE) {
      const twin = await repo.findChunk(db, sessionId, chunkId)
      return { accepted: true as const, chunkId, duplicate: true, sequence: Number(twin!.sequence) }
    }
    if (isUniqueViolation(error)) {
      throw new AppError('conflict', `Another chunk of this session already has sequence ${clientSequence}.`, { extra: { sequence: clientSequence } })
    }
    throw error
  }
}

const notRecording = (state: string) =>
  new AppError('conflict', `The session is not recording (it is ${state}); it takes no more audio.`, { extra: { state } })

/** The chunks the server holds, in sequence order: what a reconnecting client need not send again. */
export async function listChunks(deps: AppDeps, actor: Actor, sessionId: string, query: { limit?: number; cursor?: string }) {
  const workspaceId = workspaceOf(actor)
  const { db } = deps.database
  if (!await repo.findSession(db, workspaceId, sessionId)) return notFound('session', sessionId)
  const limit = query.limit ?? 50
  const after = decodeCursor(query.cursor, ['integer'])
  const rows = await repo.listChunks(db, sessionId, after ? Number(after[0]) : -1, limit)
  const page = paginate(rows, limit, (row) => [Number(row.sequence)])
  return { chunks: page.items.map(presentChunk), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) }
}

/** One chunk's bytes, exactly as received. */
export async function readChunk(deps: AppDeps, actor: Actor, sessionId: string, chunkId: string) {
  const workspaceId = workspaceOf(actor)
  const { db } = deps.database
  if (!await repo.findSession(db, workspaceId, sessionId)) return notFound('session', sessionId)
  const chunk = await repo.findChunk(db, sessionId, chunkId) ?? notFound('audio chunk', chunkId)
  const data = await deps.blobs.get(chunk.blob_key)
  if (!data) throw new AppError('internal_error', `The bytes of chunk ${chunkId} are missing from the blob store.`)
  return { chunk: presentChunk(chunk), data }
}
