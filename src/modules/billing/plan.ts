// The plan rules, pure: which plan a workspace is on, how many seats it has, and what is limited.
// One source of truth for GET /v1/billing and for the entitlement checks other modules call.
import type { BillingConfig } from '../../config.ts'
import type { BillingAccountRow } from './repo.ts'

export type PlanName = 'self-hosted' | 'free' | 'team'

export type Plan = {
  plan: PlanName
  /** Stripe's subscription status, 'none' before any subscription, 'active' when self-hosted */
  status: string
  /** undefined: unlimited */
  seatsAllowed: number | undefined
  /** a subscription existed and no longer pays (unpaid, canceled, paused, expired) */
  lapsed: boolean
}

export type LimitCode = 'seat_limit_reached' | 'seat_limit_exceeded' | 'plan_inactive'

export type Limit = { feature: 'invitations' | 'recording'; code: LimitCode; detail: string }

/** Statuses in which a subscription gives its seats: Stripe is still collecting in past_due. */
const PAYING = new Set(['active', 'trialing', 'past_due'])
/** Statuses a subscription reaches when it stops paying; `incomplete` (first payment pending) is not one. */
const LAPSED = new Set(['unpaid', 'canceled', 'incomplete_expired', 'paused'])

export function planOf(billing: BillingConfig, account: BillingAccountRow | undefined): Plan {
  if (!billing.stripe) return { plan: 'self-hosted', status: 'active', seatsAllowed: undefined, lapsed: false }
  if (!account?.stripe_subscription_id) return { plan: 'free', status: 'none', seatsAllowed: billing.freeSeats, lapsed: false }
  if (PAYING.has(account.status)) {
    return { plan: 'team', status: account.status, seatsAllowed: Math.max(account.seats ?? 0, billing.freeSeats), lapsed: false }
  }
  return { plan: 'free', status: account.status, seatsAllowed: billing.freeSeats, lapsed: LAPSED.has(account.status) }
}

/** Whether a live subscription exists, so a second checkout would bill the workspace twice. */
export const hasLiveSubscription = (account: BillingAccountRow | undefined) =>
  account?.stripe_subscription_id !== null && account?.stripe_subscription_id !== undefined
  && (PAYING.has(account.status) || account.status === 'incomplete')

/** What the plan limits now, given the seats in use (members + pending invitations). Data is never touched. */
export function limitsOf(plan: Plan, seatsUsed: number): Limit[] {
  if (plan.seatsAllowed === undefined) return []
  const limits: Limit[] = []
  if (seatsUsed >= plan.seatsAllowed) {
    limits.push({
      feature: 'invitations', code: 'seat_limit_reached',
      detail: `All ${plan.seatsAllowed} seats are taken (members and pending invitations): add seats, or revoke an invitation or remove a member, to invite someone.`,
    })
  }
  if (seatsUsed > plan.seatsAllowed) {
    limits.push(plan.lapsed
      ? {
        feature: 'recording', code: 'plan_inactive',
        detail: `The subscription is ${plan.status}: with ${seatsUsed} seats in use and ${plan.seatsAllowed} free, new recordings wait until it is renewed. Everything recorded so far stays.`,
      }
      : {
        feature: 'recording', code: 'seat_limit_exceeded',
        detail: `${seatsUsed} seats are in use and the plan has ${plan.seatsAllowed}: new recordings wait until seats are added or members removed. Everything recorded so far stays.`,
      })
  }
  return limits
}
