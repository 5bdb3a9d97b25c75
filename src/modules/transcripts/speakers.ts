// Session speakers for the voice module: their labels (a name once identified, "Speaker N"
// otherwise) and the segments each one spoke.
import type { Db } from '../../platform/db/index.ts'
import type { Executor } from '../../platform/realtime/types.ts'
import { speakerLabel } from '../../platform/speech/speakers.ts'

export async function findSpeaker(db: Db | Executor, sessionId: string, speakerId: string) {
  return db.selectFrom('session_speakers').selectAll().where('session_id', '=', sessionId).where('speaker_id', '=', speakerId).executeTakeFirst()
}

/**
 * The session speaker, made known to the session when only its segments name it (speakers a client's
 * own recognizer sent, e.g. `spk_1`, are labelled "Speaker 1"); undefined when no segment has it.
 */
export async function ensureSpeaker(db: Executor, sessionId: string, speakerId: string, at: string) {
  const known = await findSpeaker(db, sessionId, speakerId)
  if (known) return known
  const spoke = await db.selectFrom('transcript_segments').select('id').where('session_id', '=', sessionId).where('speaker_id', '=', speakerId).limit(1).executeTakeFirst()
  if (!spoke) return undefined
  await db.insertInto('session_speakers').values({ session_id: sessionId, speaker_id: speakerId, label: speakerLabel(speakerId), pitch_hz: null, created_at: at, updated_at: at })
    .onConflict((oc) => oc.columns(['session_id', 'speaker_id']).doNothing()).execute()
  return findSpeaker(db, sessionId, speakerId)
}

/** Sets a speaker's label; false when the speaker does not exist or already has it. */
export async function labelSpeaker(db: Executor, sessionId: string, speakerId: string, label: string, at: string) {
  const result = await db.updateTable('session_speakers').set({ label, updated_at: at })
    .where('session_id', '=', sessionId).where('speaker_id', '=', speakerId).where('label', '<>', label).executeTakeFirst()
  return Number(result.numUpdatedRows) > 0
}

/** The final segments of the given session speakers, newest first, at most `limit`. */
export async function speakerSegments(db: Db | Executor, speakers: Array<{ sessionId: string; speakerId: string }>, limit: number) {
  if (speakers.length === 0) return []
  const rows = await db.selectFrom('transcript_segments').select(['id', 'session_id', 'speaker_id', 'start_ms', 'end_ms', 'text'])
    .where('status', '=', 'final')
    .where((eb) => eb.or(speakers.map(({ sessionId, speakerId }) => eb.and([eb('session_id', '=', sessionId), eb('speaker_id', '=', speakerId)]))))
    .orderBy('created_at', 'desc').orderBy('start_ms', 'desc').limit(limit).execute()
  return rows.map((row) => ({ ...row, start_ms: Number(row.start_ms), end_ms: Number(row.end_ms) }))
}
