import type { Kysely } from 'kysely'

export function realtime() {
  return {
    async up(db: Kysely<unknown>) {
      // One row per conversation: the last seq handed out. Its row lock serialises appends, so
      // seq order is commit order and readers never see seq N+1 before N.
      await db.schema.createTable('conversation_event_counters')
        .addColumn('conversation_id', 'text', (c) => c.primaryKey())
        .addColumn('last_seq', 'integer', (c) => c.notNull())
        .execute()
      await db.schema.createTable('conversation_events')
        .addColumn('conversation_id', 'text', (c) => c.notNull())
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('channel', 'text', (c) => c.notNull())
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('conversation_events_pk', ['conversation_id', 'seq'])
        .execute()
    },
  }
}
