// Stripe webhook: verified with the SDK against the endpoint's signing secret (Stripe's 5-minute
// tolerance), deduplicated by event id in the transaction that applies it. Events are not trusted
// for state: the subscription they name is read again from Stripe, and a read that started before
// the one already applied is dropped, so deliveries in any order, repeated or late, end in the
// subscription's newest state.
import type Stripe from 'stripe'
import { AppError } from '../../platform/http/errors.ts'
import type { DialectName } from '../../platform/db/index.ts'
import { nowIso } from '../../platform/ids.ts'
import { findWorkspace } from '../workspace/index.ts'
import * as repo from './repo.ts'
import type { BillingContext } from './service.ts'
import { isStripeError, stripeFailure } from './stripe.ts'

/** What an event points at; the state itself comes from Stripe. */
type Target = { workspaceId?: string; customerId?: string; subscriptionId?: string }
type Snapshot = { subscription: Stripe.Subscription; readAt: string }

/** Subscriptions that are over for good: their late events never replace a live subscription. */
const ENDED = new Set(['canceled', 'incomplete_expired'])

const idOf = (value: string | { id: string } | null | undefined) => (typeof value === 'string' ? value : value?.id ?? undefined)
const isoFromSeconds = (seconds: number) => new Date(seconds * 1000).toISOString()

export function targetOf(event: Stripe.Event): Target | undefined {
  switch (event.type) {
    case 'checkout.session.completed': {
      const session = event.data.object
      if (session.mode !== 'subscription') return undefined
      return {
        workspaceId: session.client_reference_id ?? session.metadata?.workspaceId ?? undefined,
        customerId: idOf(session.customer), subscriptionId: idOf(session.subscription),
      }
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      const subscription = event.data.object
      return { workspaceId: subscription.metadata?.workspaceId, customerId: idOf(subscription.customer), subscriptionId: subscription.id }
    }
    case 'invoice.paid':
    case 'invoice.payment_failed': {
      const details = event.data.object.parent?.subscription_details
      const subscriptionId = idOf(details?.subscription)
      if (!subscriptionId) return undefined
      return { workspaceId: details?.metadata?.workspaceId, customerId: idOf(event.data.object.customer), subscriptionId }
    }
    default:
      return undefined
  }
}

export async function receiveWebhook(context: BillingContext, body: Buffer, signature: string | undefined) {
  const { deps, stripe } = context
  const secret = deps.config.billing.stripe?.webhookSecret
  if (!stripe || !secret) throw new AppError('not_found', 'Billing is not configured on this server.')
  if (!signature) throw new AppError('invalid_signature', 'The Stripe-Signature header is missing.')
  let event: Stripe.Event
  try {
    event = stripe.webhooks.constructEvent(body, signature, secret)
  } catch {
    throw new AppError('invalid_signature', 'The Stripe-Signature does not match this endpoint\'s signing secret, or its timestamp is outside the 5-minute tolerance.')
  }
  const { db } = deps.database
  if (await repo.isEventRecorded(db, event.id)) return { received: true as const, duplicate: true }

  const target = targetOf(event)
  const snapshot = target?.subscriptionId ? await readSubscription(context, stripe, target.subscriptionId) : undefined
  const receivedAt = nowIso()
  return db.transaction().execute(async (trx) => {
    const fresh = await repo.recordEvent(trx, {
      id: event.id, type: event.type, workspace_id: null, outcome: 'ignored',
      stripe_created_at: isoFromSeconds(event.created), received_at: receivedAt,
    })
    if (!fresh) return { received: true as const, duplicate: true }
    // A subscription Stripe does not know (another account's, a test fixture's) is not ours to track.
    const tracked = target && (snapshot || !target.subscriptionId) ? target : undefined
    const workspaceId = tracked ? await workspaceOf(trx, tracked, snapshot) : undefined
    if (!tracked || !workspaceId) return { received: true as const }
    const outcome = await applyToWorkspace(trx, deps.database.dialect, workspaceId, tracked, snapshot, receivedAt)
    await repo.setEventOutcome(trx, event.id, outcome, workspaceId)
    return { received: true as const }
  })
}

/** The subscription as Stripe has it now; undefined when Stripe does not know it (not ours to track). */
async function readSubscription(context: BillingContext, stripe: Stripe, subscriptionId: string): Promise<Snapshot | undefined> {
  const readAt = nowIso()
  try {
    return { subscription: await stripe.subscriptions.retrieve(subscriptionId), readAt }
  } catch (error) {
    if (isStripeError(error) && error.type === 'StripeInvalidRequestError' && error.statusCode === 404) return undefined
    // Anything else is retried: answering 503 makes Stripe deliver the event again later.
    throw stripeFailure(context.log, 'read the subscription', error)
  }
}

/** The workspace an event belongs to: the one already holding its customer, else the one our checkout named. */
async function workspaceOf(trx: repo.Executor, target: Target, snapshot: Snapshot | undefined): Promise<string | undefined> {
  const customerId = target.customerId ?? idOf(snapshot?.subscription.customer)
  const byCustomer = customerId ? await repo.findAccountByCustomer(trx, customerId) : undefined
  if (byCustomer) return byCustomer.workspace_id
  const named = target.workspaceId ?? snapshot?.subscription.metadata?.workspaceId
  if (!named || !(await findWorkspace(trx, named))) return undefined
  return named
}

async function applyToWorkspace(trx: repo.Executor, dialect: DialectName, workspaceId: string, target: Target, snapshot: Snapshot | undefined, now: string) {
  // Locked, so that of two deliveries applied at once the one with the older read cannot commit last.
  const account = await repo.lockAccount(trx, dialect, workspaceId, now)
  const customerId = target.customerId ?? idOf(snapshot?.subscription.customer)
  const changes: Parameters<typeof repo.updateAccount>[2] = {}
  if (customerId && !account.stripe_customer_id && !(await repo.findAccountByCustomer(trx, customerId))) {
    changes.stripe_customer_id = customerId
  }
  const applies = snapshot !== undefined && supersedes(account, snapshot)
  if (applies) Object.assign(changes, subscriptionState(snapshot))
  if (Object.keys(changes).length > 0) await repo.updateAccount(trx, workspaceId, { ...changes, updated_at: now })
  return snapshot && !applies ? 'stale' : 'applied'
}

/** Whether a read of the subscription may replace what the workspace has. */
function supersedes(account: repo.BillingAccountRow, { subscription, readAt }: Snapshot): boolean {
  // Two reads that started in the same millisecond cannot be ordered: the one applied first stays.
  if (account.synced_at && readAt <= account.synced_at) return false
  const tracksAnother = account.stripe_subscription_id !== null && account.stripe_subscription_id !== subscription.id
  return !(tracksAnother && ENDED.has(subscription.status) && !ENDED.has(account.status))
}

function subscriptionState({ subscription, readAt }: Snapshot) {
  const items = subscription.items.data
  const item = items[0]
  const periodEnd = items.reduce((latest, candidate) => Math.max(latest, candidate.current_period_end ?? 0), 0)
  return {
    stripe_subscription_id: subscription.id,
    status: subscription.status,
    price_id: item?.price.id ?? null,
    seats: items.reduce((sum, candidate) => sum + (candidate.quantity ?? 0), 0) || null,
    current_period_end: periodEnd > 0 ? isoFromSeconds(periodEnd) : null,
    cancel_at_period_end: subscription.cancel_at_period_end || subscription.cancel_at !== null ? 1 : 0,
    synced_at: readAt,
  }
}
