// Billing (Stripe, when configured): one row per workspace with its customer and subscription as
// last read from Stripe, and the ids of webhook events already applied, so a redelivered event is
// acknowledged without being applied twice.
import type { Kysely } from 'kysely'

export function billing() {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.createTable('billing_accounts')
        .addColumn('workspace_id', 'text', (c) => c.primaryKey().references('workspaces.id').onDelete('cascade'))
        .addColumn('stripe_customer_id', 'text', (c) => c.unique())
        .addColumn('stripe_subscription_id', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('price_id', 'text')
        .addColumn('seats', 'integer')
        .addColumn('current_period_end', 'text')
        .addColumn('cancel_at_period_end', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('synced_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema.createTable('billing_events')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('workspace_id', 'text')
        .addColumn('outcome', 'text', (c) => c.notNull())
        .addColumn('stripe_created_at', 'text', (c) => c.notNull())
        .addColumn('received_at', 'text', (c) => c.notNull())
        .execute()
    },
  }
}
