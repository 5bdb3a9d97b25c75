// Kysely queries of the billing tables (billing_accounts, billing_events), each scoped to one
// workspace or one Stripe object.
import type { Kysely, Selectable, Transaction, Updateable } from 'kysely'
import { forUpdate } from '../../platform/db/dialect.ts'
import type { DialectName } from '../../platform/db/index.ts'
import type { BillingAccountTable, Tables } from '../../platform/db/tables.ts'

export type Executor = Kysely<Tables> | Transaction<Tables>
export type BillingAccountRow = Selectable<BillingAccountTable>

export const findAccount = (db: Executor, workspaceId: string): Promise<BillingAccountRow | undefined> =>
  db.selectFrom('billing_accounts').selectAll().where('workspace_id', '=', workspaceId).executeTakeFirst()

export const findAccountByCustomer = (db: Executor, customerId: string): Promise<BillingAccountRow | undefined> =>
  db.selectFrom('billing_accounts').selectAll().where('stripe_customer_id', '=', customerId).executeTakeFirst()

/** The workspace's row, created empty ('none') when it has none yet, locked for the rest of the transaction. */
export async function lockAccount(db: Executor, dialect: DialectName, workspaceId: string, now: string): Promise<BillingAccountRow> {
  await db.insertInto('billing_accounts').values({
    workspace_id: workspaceId, stripe_customer_id: null, stripe_subscription_id: null, status: 'none', price_id: null,
    seats: null, current_period_end: null, cancel_at_period_end: 0, synced_at: null, created_at: now, updated_at: now,
  }).onConflict((oc) => oc.column('workspace_id').doNothing()).execute()
  return forUpdate(dialect, db.selectFrom('billing_accounts').selectAll().where('workspace_id', '=', workspaceId)).executeTakeFirstOrThrow()
}

export const updateAccount = (db: Executor, workspaceId: string, changes: Updateable<BillingAccountTable>) =>
  db.updateTable('billing_accounts').set(changes).where('workspace_id', '=', workspaceId).execute()

export const isEventRecorded = async (db: Executor, eventId: string) =>
  (await db.selectFrom('billing_events').select('id').where('id', '=', eventId).executeTakeFirst()) !== undefined

/** Records the event; false when it was recorded already (a redelivery, or a concurrent delivery that won). */
export async function recordEvent(db: Executor, row: Tables['billing_events']): Promise<boolean> {
  const result = await db.insertInto('billing_events').values(row).onConflict((oc) => oc.column('id').doNothing()).executeTakeFirst()
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1
}

export const setEventOutcome = (db: Executor, eventId: string, outcome: string, workspaceId: string | null) =>
  db.updateTable('billing_events').set({ outcome, workspace_id: workspaceId }).where('id', '=', eventId).execute()
