// Billing calls: the workspace's summary, and the Stripe pages (checkout, portal) a manager is sent to.
import { api, idempotencyKey, useResource } from '../../lib/api.ts'
import type { BillingRedirect, BillingSummary, CheckoutInput } from '../../lib/types.ts'

export const BILLING = '/v1/billing'
export const useBilling = () => useResource<BillingSummary>(BILLING)

export const billing = {
  checkout: (input: CheckoutInput = {}) => api.post<BillingRedirect>('/v1/billing/checkout', input, { 'idempotency-key': idempotencyKey() }),
  portal: () => api.post<BillingRedirect>('/v1/billing/portal', {}),
}

/** Leaves for the Stripe page the server answered with. */
export function follow(redirect: BillingRedirect | undefined) {
  if (redirect?.url) window.location.assign(redirect.url)
}
