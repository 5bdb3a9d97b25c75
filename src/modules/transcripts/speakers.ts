// Session speakers for the voice module: their labels (a name once identified, "Speaker N"
// otherwise) and the segments each one spoke.
import type { Db } from '../../platform/db/index.ts'
import type { Executor } from '../../platform/realtime/types.ts'

export async function findSpeaker(db: Db | Executor, sessionId: string, speakerId: string) {
  return db.selectFrom('session_speakers').selectAll().where('session_id', '=', sessionId).where('speaker_id', '=', speakerId).executeTakeFirst()
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
