// Transcription progress per session: which chunks have been turned into segments, the audio
// after the last closed utterance (kept as a blob: `tail`), an utterance still being spoken
// (its segment id, so its partial and final share it), and where a WebM/Ogg stream began.
import type { Kysely } from 'kysely'

export function transcription() {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.createTable('transcription_state')
        .addColumn('session_id', 'text', (c) => c.primaryKey().references('capture_sessions.id').onDelete('cascade'))
        // bumped by every run that commits: a run that finds it changed retries from the new state
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('processed_sequence', 'integer', (c) => c.notNull())
        .addColumn('audio_ms', 'integer', (c) => c.notNull())
        .addColumn('tail_blob_key', 'text')
        .addColumn('tail_start_ms', 'integer', (c) => c.notNull())
        .addColumn('open_segment_id', 'text')
        .addColumn('stream_first_sequence', 'integer')
        .addColumn('stream_samples', 'integer', (c) => c.notNull())
        .addColumn('engine', 'text')
        .addColumn('last_error', 'text')
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute()
      // the engine in force when the session was created: `client` means client-side segments only
      await db.schema.alterTable('capture_sessions').addColumn('transcription_engine', 'text').execute()
    },
  }
}
