// Client-side recognition (DESIGN §6, engine `client`): the recording client pushes final segments
// as `transcript.segment` socket messages; each is stored and announced as `transcript.final`. A
// segment id the client repeats (a resend after a reconnect) stores nothing new.
import type { AppDeps } from '../../platform/deps.ts'
import { newId, nowIso } from '../../platform/ids.ts'
import { enqueue } from '../../platform/jobs/index.ts'
import { SocketError } from '../../platform/realtime/socket.ts'
import { presentSegment } from './presenter.ts'
import * as repo from './repo.ts'
import { JOBS } from '../../domain/jobs.ts'
import { findSessionById } from '../sessions/index.ts'

export type ClientSegment = { id?: unknown; text?: unknown; startMs?: unknown; endMs?: unknown; speakerId?: unknown; language?: unknown }

const ID = /^[A-Za-z0-9_-]{1,40}$/
const SPEAKER = /^[A-Za-z0-9_-]{1,40}$/
const LANGUAGE = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/

function validate(data: ClientSegment) {
  const problem = (message: string): never => { throw new SocketError('invalid_message', `transcript.segment: ${message}`) }
  if (typeof data.text !== 'string' || data.text.trim() === '' || data.text.length > 10_000) problem('data.text must be 1–10000 characters')
  if (!Number.isInteger(data.startMs) || (data.startMs as number) < 0) problem('data.startMs must be a whole number of milliseconds ≥ 0')
  if (!Number.isInteger(data.endMs) || (data.endMs as number) < (data.startMs as number)) problem('data.endMs must be a whole number ≥ startMs')
  if (data.id !== undefined && (typeof data.id !== 'string' || !ID.test(data.id))) problem('data.id must be 1–40 letters, digits, _ or -')
  if (data.speakerId !== undefined && (typeof data.speakerId !== 'string' || !SPEAKER.test(data.speakerId))) problem('data.speakerId must be 1–40 letters, digits, _ or -')
  if (data.language !== undefined && (typeof data.language !== 'string' || !LANGUAGE.test(data.language))) problem('data.language must be a BCP 47 tag')
  return {
    id: data.id as string | undefined, text: (data.text as string).trim(), startMs: data.startMs as number, endMs: data.endMs as number,
    speakerId: data.speakerId as string | undefined, language: data.language as string | undefined,
  }
}

export async function acceptClientSegment(deps: AppDeps, sessionId: string, data: ClientSegment) {
  const segment = validate(data)
  const { db } = deps.database
  const session = await findSessionById(db, sessionId)
  if (!session) throw new SocketError('not_found', 'The session no longer exists.')
  if (session.state !== 'recording' && session.state !== 'processing') {
    throw new SocketError('conflict', `The session is ${session.state}: it takes no more segments.`)
  }
  // The client's id is scoped to the session, so two sessions may use the same one (≤ 72 characters in all,
  // within the 80 that work objects accept in sourceSegmentIds).
  const id = segment.id ? `seg_c${sessionId.slice(4)}_${segment.id}` : newId('seg')
  const now = nowIso()
  return db.transaction().execute(async (trx) => {
    const existing = await trx.selectFrom('transcript_segments').select('id').where('id', '=', id).executeTakeFirst()
    if (existing) return { id, duplicate: true }
    const row = {
      id, session_id: sessionId, workspace_id: session.workspace_id, start_ms: segment.startMs, end_ms: segment.endMs,
      speaker_id: segment.speakerId ?? null, text: segment.text, status: 'final' as const, source: 'client' as const,
      engine: 'client', language: segment.language ?? null, confidence: null, words: null, created_at: now, updated_at: now,
    }
    await repo.insertSegment(trx, row)
    await deps.events.append(trx, session.conversation_id, 'transcript.final', presentSegment(row))
    // the extraction module's job, by name: new words may hold new work
    await enqueue(trx, JOBS.refine, { sessionId }, { dedupeKey: sessionId })
    return { id, duplicate: false }
  })
}
