// The plan rules alone: which plan, how many seats, what is limited.
import { describe, expect, it } from 'vitest'
import type { BillingConfig } from '../../config.ts'
import { hasLiveSubscription, limitsOf, planOf } from './plan.ts'
import type { BillingAccountRow } from './repo.ts'

const stripe: BillingConfig = { stripe: { secretKey: 'sk', webhookSecret: 'whsec', priceId: 'price', apiBase: undefined }, freeSeats: 3 }
const selfHosted: BillingConfig = { stripe: undefined, freeSeats: 3 }

const account = (status: string, seats: number | null = 10): BillingAccountRow => ({
  workspace_id: 'wsp_1', stripe_customer_id: 'cus_1', stripe_subscription_id: 'sub_1', status, price_id: 'price', seats,
  current_period_end: null, cancel_at_period_end: 0, synced_at: null, created_at: '', updated_at: '',
})

describe('planOf', () => {
  it('is self-hosted and unlimited without Stripe, whatever is stored', () => {
    expect(planOf(selfHosted, account('canceled'))).toEqual({ plan: 'self-hosted', status: 'active', seatsAllowed: undefined, lapsed: false })
  })

  it('is free with the free seats before any subscription', () => {
    expect(planOf(stripe, undefined)).toEqual({ plan: 'free', status: 'none', seatsAllowed: 3, lapsed: false })
    expect(planOf(stripe, { ...account('none'), stripe_subscription_id: null })).toMatchObject({ plan: 'free', status: 'none' })
  })

  it('gives the paid seats (never fewer than the free ones) while Stripe is collecting', () => {
    for (const status of ['active', 'trialing', 'past_due']) {
      expect(planOf(stripe, account(status))).toEqual({ plan: 'team', status, seatsAllowed: 10, lapsed: false })
    }
    expect(planOf(stripe, account('active', 1)).seatsAllowed).toBe(3)
  })

  it('falls back to the free seats when the subscription lapsed, and says so', () => {
    for (const status of ['unpaid', 'canceled', 'paused', 'incomplete_expired']) {
      expect(planOf(stripe, account(status))).toEqual({ plan: 'free', status, seatsAllowed: 3, lapsed: true })
    }
    expect(planOf(stripe, account('incomplete'))).toEqual({ plan: 'free', status: 'incomplete', seatsAllowed: 3, lapsed: false })
  })
})

describe('limitsOf', () => {
  it('limits nothing when unlimited or below the seats', () => {
    expect(limitsOf(planOf(selfHosted, undefined), 500)).toEqual([])
    expect(limitsOf(planOf(stripe, undefined), 2)).toEqual([])
  })

  it('stops invitations at the seats, and recordings only beyond them', () => {
    expect(limitsOf(planOf(stripe, undefined), 3).map((limit) => [limit.feature, limit.code])).toEqual([['invitations', 'seat_limit_reached']])
    expect(limitsOf(planOf(stripe, account('active', 4)), 5).map((limit) => [limit.feature, limit.code])).toEqual([
      ['invitations', 'seat_limit_reached'], ['recording', 'seat_limit_exceeded'],
    ])
    expect(limitsOf(planOf(stripe, account('unpaid')), 4).map((limit) => limit.code)).toEqual(['seat_limit_reached', 'plan_inactive'])
  })
})

describe('hasLiveSubscription', () => {
  it('counts paying and not-yet-paid subscriptions, not ended ones', () => {
    expect(['active', 'trialing', 'past_due', 'incomplete'].map((status) => hasLiveSubscription(account(status)))).toEqual([true, true, true, true])
    expect(['canceled', 'unpaid', 'incomplete_expired', 'paused'].map((status) => hasLiveSubscription(account(status)))).toEqual([false, false, false, false])
    expect(hasLiveSubscription(undefined)).toBe(false)
  })
})
