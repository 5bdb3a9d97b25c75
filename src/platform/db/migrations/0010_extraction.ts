// Extraction runs: where a session's refinement stands, and every item the engine found (kept
// even when the quality gate hides it), keyed by the engine's stable item key so re-runs on a
// longer transcript never propose the same item twice.
import type { Kysely } from 'kysely'

export function extraction() {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.createTable('work_refinements')
        .addColumn('session_id', 'text', (c) => c.primaryKey().references('capture_sessions.id').onDelete('cascade'))
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('engine', 'text', (c) => c.notNull())
        .addColumn('gate', 'real', (c) => c.notNull())
        .addColumn('segments_processed', 'integer', (c) => c.notNull())
        .addColumn('items_found', 'integer', (c) => c.notNull())
        .addColumn('items_visible', 'integer', (c) => c.notNull())
        .addColumn('last_error', 'text')
        .addColumn('last_run_at', 'text')
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema.createTable('extraction_items')
        .addColumn('session_id', 'text', (c) => c.notNull().references('capture_sessions.id').onDelete('cascade'))
        .addColumn('item_key', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('confidence', 'real', (c) => c.notNull())
        // the gate in force when the item was made; hidden = confidence below it
        .addColumn('gate', 'real', (c) => c.notNull())
        .addColumn('hidden', 'integer', (c) => c.notNull())
        .addColumn('work_object_id', 'text')
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('extraction_items_pk', ['session_id', 'item_key'])
        .execute()
    },
  }
}
