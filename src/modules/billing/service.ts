// Billing use cases: the workspace's summary (plan, seats, limits), Stripe Checkout for a
// subscription, and the Stripe billing portal. Without Stripe configured the server is
// self-hosted: the summary says so and checkout and portal answer 409 billing_disabled.
import type { FastifyBaseLogger } from 'fastify'
import type { Actor, Membership } from '../../platform/auth/actor.ts'
import { isManager } from '../../platform/auth/policy.ts'
import type { AppDeps } from '../../platform/deps.ts'
import { AppError, badRequest } from '../../platform/http/errors.ts'
import { countSeats } from '../workspace/index.ts'
import { hasLiveSubscription, limitsOf, planOf } from './plan.ts'
import * as repo from './repo.ts'
import type { BillingSummary, CheckoutInput } from './schemas.ts'
import { callStripe, type StripeClient } from './stripe.ts'

export type BillingContext = { deps: AppDeps; stripe: StripeClient | undefined; log: FastifyBaseLogger }

/** Where Stripe sends the browser back to: the web client's billing page. */
export const BILLING_PAGE_PATH = '/billing'

export async function billingSummary({ deps }: BillingContext, membership: Membership): Promise<BillingSummary> {
  const { db } = deps.database
  const account = await repo.findAccount(db, membership.workspaceId)
  const seatsUsed = await countSeats(db, membership.workspaceId)
  const plan = planOf(deps.config.billing, account)
  const enabled = deps.config.billing.stripe !== undefined
  const periodEnd = plan.plan === 'team' ? account?.current_period_end : undefined
  return {
    billingEnabled: enabled,
    plan: plan.plan,
    status: plan.status,
    seats: { used: seatsUsed, ...(plan.seatsAllowed === undefined ? {} : { allowed: plan.seatsAllowed }) },
    ...(periodEnd ? { currentPeriodEnd: periodEnd } : {}),
    cancelAtPeriodEnd: plan.plan === 'team' && account?.cancel_at_period_end === 1,
    limits: limitsOf(plan, seatsUsed),
    canManage: enabled && isManager(membership),
  }
}

function requireStripe(context: BillingContext): StripeClient {
  if (!context.stripe) {
    throw new AppError('billing_disabled', 'Billing is not enabled on this server: it is self-hosted and nothing is limited.')
  }
  return context.stripe
}

const returnUrl = (deps: AppDeps, outcome?: string) =>
  `${deps.config.publicBase}${BILLING_PAGE_PATH}${outcome ? `?checkout=${outcome}` : ''}`

/** A Stripe Checkout Session (mode subscription) for the caller's workspace; answers its URL. */
export async function startCheckout(context: BillingContext, actor: Actor, membership: Membership, input: CheckoutInput) {
  const stripe = requireStripe(context)
  const { deps } = context
  const { db } = deps.database
  const { workspaceId } = membership
  const account = await repo.findAccount(db, workspaceId)
  if (hasLiveSubscription(account)) {
    throw new AppError('already_subscribed', 'This workspace already has a subscription: change seats or payment in the billing portal (POST /v1/billing/portal).', {
      extra: { subscriptionStatus: account!.status },
    })
  }
  const seatsUsed = await countSeats(db, workspaceId)
  const seats = input.seats ?? Math.max(seatsUsed, 1)
  if (seats < seatsUsed) {
    throw badRequest('seats', 'below_seats_used', `The workspace uses ${seatsUsed} seats (members and pending invitations); subscribe to at least that many.`)
  }
  const session = await callStripe(context.log, 'start a checkout', () => stripe.checkout.sessions.create({
    mode: 'subscription',
    line_items: [{ price: deps.config.billing.stripe!.priceId, quantity: seats }],
    client_reference_id: workspaceId,
    metadata: { workspaceId },
    subscription_data: { metadata: { workspaceId } },
    success_url: returnUrl(deps, 'success'),
    cancel_url: returnUrl(deps, 'canceled'),
    ...(account?.stripe_customer_id ? { customer: account.stripe_customer_id } : { customer_email: actor.email }),
  }))
  if (!session.url) throw new AppError('service_unavailable', 'The payment provider returned no checkout page; try again shortly.')
  return { url: session.url }
}

/** A Stripe billing portal session for the workspace's customer; answers its URL. */
export async function openPortal(context: BillingContext, membership: Membership) {
  const stripe = requireStripe(context)
  const account = await repo.findAccount(context.deps.database.db, membership.workspaceId)
  if (!account?.stripe_customer_id) {
    throw new AppError('no_subscription', 'This workspace has no subscription yet: start one with POST /v1/billing/checkout.')
  }
  const session = await callStripe(context.log, 'open the billing portal', () => stripe.billingPortal.sessions.create({
    customer: account.stripe_customer_id!,
    return_url: returnUrl(context.deps),
  }))
  return { url: session.url }
}

/** The port other modules call before they start new work (platform/ports.ts `entitlements`). */
export function entitlements(deps: AppDeps) {
  const check = async (executor: repo.Executor, workspaceId: string, feature: 'invitations' | 'recording') => {
    if (!deps.config.billing.stripe) return
    const plan = planOf(deps.config.billing, await repo.findAccount(executor, workspaceId))
    const limit = limitsOf(plan, await countSeats(executor, workspaceId)).find((candidate) => candidate.feature === feature)
    if (limit) throw new AppError(limit.code, limit.detail, { extra: { plan: plan.plan, subscriptionStatus: plan.status } })
  }
  return {
    assertSeatAvailable: (executor: repo.Executor, workspaceId: string) => check(executor, workspaceId, 'invitations'),
    assertCanRecord: (executor: repo.Executor, workspaceId: string) => check(executor, workspaceId, 'recording'),
  }
}

