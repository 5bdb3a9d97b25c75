// Transcripts: the segments of a session (partial, then final with the same id) and the speakers
// the session has heard. Later migrations add search indexes over them.
import type { Kysely } from 'kysely'

export function transcripts() {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.createTable('transcript_segments')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('session_id', 'text', (c) => c.notNull().references('capture_sessions.id').onDelete('cascade'))
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        // milliseconds from the start of the session's audio
        .addColumn('start_ms', 'integer', (c) => c.notNull())
        .addColumn('end_ms', 'integer', (c) => c.notNull())
        .addColumn('speaker_id', 'text')
        .addColumn('text', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('engine', 'text')
        .addColumn('language', 'text')
        .addColumn('confidence', 'real')
        // JSON array of {word, startMs, endMs, confidence} when the engine gives word timings
        .addColumn('words', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema.createIndex('transcript_segments_session_time').on('transcript_segments')
        .columns(['session_id', 'start_ms', 'id']).execute()

      await db.schema.createTable('session_speakers')
        .addColumn('session_id', 'text', (c) => c.notNull().references('capture_sessions.id').onDelete('cascade'))
        .addColumn('speaker_id', 'text', (c) => c.notNull())
        .addColumn('label', 'text', (c) => c.notNull())
        // median pitch of the speaker's voiced frames, when pitch clustering assigned the speaker
        .addColumn('pitch_hz', 'real')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('session_speakers_pk', ['session_id', 'speaker_id'])
        .execute()
    },
  }
}
