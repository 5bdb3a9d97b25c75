// Durable audio ingestion. A chunk is acknowledged only after its bytes are durable in the blob
// store and its row is committed (grouped with concurrent chunks: audio-commit.ts); the (session,
// chunk id) key makes a repeated chunk — also one racing its twin — store nothing and answer
// `duplicate: true`.
import type { AppDeps } from '../../platform/deps.ts'
import type { Actor } from '../../platform/auth/actor.ts'
import { AppError, badRequest, notFound } from '../../platform/http/errors.ts'
import { decodeCursor, paginate } from '../../platform/http/pagination.ts'
import { assertAudioBytes, chunkBytes, parseAudioContentType } from './content-type.ts'
import { canUploadAudio } from './policy.ts'
import { presentChunk } from './presenter.ts'
import { commitChunk, notRecording } from './audio-commit.ts'
import * as repo from './repo.ts'

const CHUNK_ID_PATTERN = /^[\x21-\x7e]{1,128}$/
const SEQUENCE_PATTERN = /^\d{1,9}$/

export type ChunkUpload = {
  chunkId: string | string[] | undefined
  sequence: string | string[] | undefined
  contentType: string | undefined
  body: unknown
}

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

export { PROGRESS_EVENT_INTERVAL_MS } from './audio-commit.ts'

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

  const committed = await commitChunk(deps, { sessionId, chunkId, clientSequence, contentType: format.contentType, data })
  return { accepted: true as const, chunkId, ...committed }
}

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
