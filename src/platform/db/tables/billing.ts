// Row types of the tables owned by the billing module: each workspace's Stripe customer and
// subscription as last read from Stripe, and the webhook events already applied (deduplication).
// Only the billing module queries them; other modules reach its rules through ports.entitlements.

export type BillingAccountTable = {
  workspace_id: string
  stripe_customer_id: string | null
  stripe_subscription_id: string | null
  /** Stripe's subscription status (active, trialing, past_due, unpaid, canceled, …) or 'none' */
  status: string
  price_id: string | null
  /** the subscription's quantity: seats paid for */
  seats: number | null
  current_period_end: string | null
  /** 0/1 */
  cancel_at_period_end: number
  /** when the Stripe read that produced this state started; an older read never overwrites it */
  synced_at: string | null
  created_at: string
  updated_at: string
}

export type BillingEventTable = {
  /** Stripe's event id (evt_…) */
  id: string
  type: string
  workspace_id: string | null
  /** applied | ignored | stale */
  outcome: string
  /** the event's `created`, ISO 8601 */
  stripe_created_at: string
  received_at: string
}

export type BillingTables = {
  billing_accounts: BillingAccountTable
  billing_events: BillingEventTable
}
