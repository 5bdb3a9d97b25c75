// Capture: conversations, capture sessions, their audio chunks, and the durable job queue.
import { sql, type Kysely } from 'kysely'

export function capture() {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.createTable('conversations')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('session_id', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute()

      await db.schema.createTable('capture_sessions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('conversation_id', 'text', (c) => c.notNull().unique())
        .addColumn('project_id', 'text')
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('capture_mode', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('failure_reason', 'text')
        .addColumn('archived_at', 'text')
        .addColumn('started_at', 'text', (c) => c.notNull())
        .addColumn('ended_at', 'text')
        .addColumn('chunk_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('audio_bytes', 'integer', (c) => c.notNull().defaultTo(0))
        // highest chunk sequence so far (-1: none); chunks without a client sequence get the next one
        .addColumn('last_sequence', 'integer', (c) => c.notNull().defaultTo(-1))
        // when the last chunk-progress session.updated was emitted (they are throttled)
        .addColumn('progress_event_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema.createIndex('capture_sessions_workspace_created').on('capture_sessions')
        .columns(['workspace_id', 'created_at', 'id']).execute()
      // One recording session per account, also under concurrent creates: the database decides.
      await sql`create unique index capture_sessions_one_recording on capture_sessions (account_id) where state = 'recording'`.execute(db)

      await db.schema.createTable('audio_chunks')
        .addColumn('session_id', 'text', (c) => c.notNull().references('capture_sessions.id').onDelete('cascade'))
        .addColumn('chunk_id', 'text', (c) => c.notNull())
        .addColumn('sequence', 'integer', (c) => c.notNull())
        .addColumn('content_type', 'text', (c) => c.notNull())
        .addColumn('byte_size', 'integer', (c) => c.notNull())
        .addColumn('sha256', 'text', (c) => c.notNull())
        .addColumn('blob_key', 'text', (c) => c.notNull())
        .addColumn('received_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('audio_chunks_pk', ['session_id', 'chunk_id'])
        .addUniqueConstraint('audio_chunks_sequence', ['session_id', 'sequence'])
        .execute()

      await db.schema.createTable('jobs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('max_attempts', 'integer', (c) => c.notNull())
        .addColumn('run_at', 'text', (c) => c.notNull())
        .addColumn('locked_by', 'text')
        .addColumn('locked_until', 'text')
        .addColumn('last_error', 'text')
        .addColumn('dedupe_key', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('finished_at', 'text')
        .execute()
      await db.schema.createIndex('jobs_due').on('jobs').columns(['state', 'run_at']).execute()
      await db.schema.createIndex('jobs_lease').on('jobs').columns(['state', 'locked_until']).execute()
      // At most one pending (queued or running) job per (name, dedupe key).
      await sql`create unique index jobs_pending_dedupe on jobs (name, dedupe_key) where dedupe_key is not null and state in ('queued', 'running')`.execute(db)
    },
  }
}
