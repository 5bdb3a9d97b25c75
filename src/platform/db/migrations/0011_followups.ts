// What follows the meeting in a work set (issue 7): clarify items a person settles, relations
// between work objects a person confirms or rejects, the takeover summaries derived after the
// meeting (each pinned to the set revision it read; never rewritten, only superseded), and the
// actions applied to a set by idempotency key (a repeated key replays the stored answer); and the
// owner and due date the engine heard for a work object.
import type { Kysely } from 'kysely'

export function followups() {
  return {
    async up(db: Kysely<unknown>) {
      // What the engine heard about an action: who takes it (a name, until a person assigns an
      // account) and by when (a local date).
      await db.schema.alterTable('work_objects').addColumn('owner_hint', 'text').execute()
      await db.schema.alterTable('work_objects').addColumn('owner_hint_account_id', 'text').execute()
      await db.schema.alterTable('work_objects').addColumn('due_date', 'text').execute()
      await db.schema.createTable('work_clarifications')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('work_set_id', 'text', (c) => c.notNull().references('work_sets.id').onDelete('cascade'))
        .addColumn('session_id', 'text', (c) => c.notNull())
        .addColumn('clarify_key', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('question', 'text', (c) => c.notNull())
        .addColumn('work_object_ids', 'text', (c) => c.notNull())
        .addColumn('source_segment_ids', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('answer', 'text')
        .addColumn('resolved_by', 'text')
        .addColumn('resolved_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('work_clarifications_key', ['session_id', 'clarify_key'])
        .execute()
      await db.schema.createIndex('work_clarifications_set').on('work_clarifications').columns(['work_set_id', 'created_at']).execute()
      await db.schema.createTable('work_relations')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('work_set_id', 'text', (c) => c.notNull().references('work_sets.id').onDelete('cascade'))
        .addColumn('session_id', 'text', (c) => c.notNull())
        .addColumn('relation_key', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('from_object_id', 'text', (c) => c.notNull())
        .addColumn('to_object_id', 'text', (c) => c.notNull())
        .addColumn('confidence', 'real', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('decided_by', 'text')
        .addColumn('decided_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('work_relations_key', ['session_id', 'relation_key'])
        .execute()
      await db.schema.createIndex('work_relations_set').on('work_relations').columns(['work_set_id', 'created_at']).execute()
      await db.schema.createTable('takeover_summaries')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('work_set_id', 'text', (c) => c.notNull().references('work_sets.id').onDelete('cascade'))
        .addColumn('work_set_revision', 'integer', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('generated_by', 'text', (c) => c.notNull())
        .addColumn('action_items', 'integer', (c) => c.notNull())
        .addColumn('content', 'text')
        .addColumn('error', 'text')
        .addColumn('superseded_by', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema.createIndex('takeover_summaries_set').on('takeover_summaries').columns(['work_set_id', 'created_at']).execute()
      await db.schema.createTable('workset_actions')
        .addColumn('work_set_id', 'text', (c) => c.notNull().references('work_sets.id').onDelete('cascade'))
        .addColumn('idempotency_key', 'text', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('fingerprint', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('response', 'text')
        .addColumn('actor_account_id', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('completed_at', 'text')
        .addPrimaryKeyConstraint('workset_actions_pk', ['work_set_id', 'idempotency_key'])
        .execute()
    },
  }
}
