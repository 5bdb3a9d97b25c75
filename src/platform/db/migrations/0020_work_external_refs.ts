// Receipts on the work object: `work_objects.external_refs`, a JSON array of what executed external
// actions made for the object (provider, external id, URL, the execution), appended by the work
// module's recordExternalReceipt when the integrations module's execution succeeds.
import { sql, type Kysely } from 'kysely'

export function workExternalRefs() {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('work_objects').addColumn('external_refs', 'text', (c) => c.notNull().defaultTo(sql`'[]'`)).execute()
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('work_objects').dropColumn('external_refs').execute()
    },
  }
}
