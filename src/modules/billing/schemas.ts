// Billing request and response shapes (TypeBox). Names of the response schemas are the interface's.
import { Type, type Static } from 'typebox'

const Timestamp = Type.String({ format: 'date-time' })

export const BillingLimit = Type.Object({
  feature: Type.Union([Type.Literal('invitations'), Type.Literal('recording')], { description: 'what is limited now' }),
  code: Type.Union([Type.Literal('seat_limit_reached'), Type.Literal('seat_limit_exceeded'), Type.Literal('plan_inactive')], {
    description: 'the problem code the limited operation answers with (402)',
  }),
  detail: Type.String(),
}, { $id: 'BillingLimit', additionalProperties: false })

export const BillingSummaryResponse = Type.Object({
  billingEnabled: Type.Boolean({ description: 'false on a self-hosted server without Stripe: nothing is limited' }),
  plan: Type.Union([Type.Literal('self-hosted'), Type.Literal('free'), Type.Literal('team')]),
  status: Type.String({
    description: '`active` when self-hosted; `none` before any subscription; otherwise Stripe\'s subscription status (`active`, `trialing`, `past_due`, `unpaid`, `canceled`, `incomplete`, `incomplete_expired`, `paused`)',
  }),
  seats: Type.Object({
    used: Type.Integer({ minimum: 0, description: 'members plus pending invitations' }),
    allowed: Type.Optional(Type.Integer({ minimum: 0, description: 'omitted: unlimited' })),
  }, { additionalProperties: false }),
  currentPeriodEnd: Type.Optional(Timestamp),
  cancelAtPeriodEnd: Type.Boolean(),
  limits: Type.Array(Type.Ref('BillingLimit'), { description: 'what the plan limits now; empty when nothing is. Existing data is never limited.' }),
  canManage: Type.Boolean({ description: 'whether the caller may open checkout and the billing portal (owners and admins, billing enabled)' }),
}, { $id: 'BillingSummaryResponse', additionalProperties: false })

export const BillingRedirectResponse = Type.Object({
  url: Type.String({ format: 'uri', description: 'where to send the browser: Stripe Checkout or the Stripe billing portal' }),
}, { $id: 'BillingRedirectResponse', additionalProperties: false })

export const CheckoutBody = Type.Object({
  seats: Type.Optional(Type.Integer({
    minimum: 1, maximum: 10_000,
    description: 'seats to subscribe to; default: the seats in use (at least 1). Fewer than the seats in use is refused.',
  })),
}, { additionalProperties: false })

export const PortalBody = Type.Object({}, { additionalProperties: false })

export const WebhookAck = Type.Object({
  received: Type.Literal(true),
  duplicate: Type.Optional(Type.Boolean({ description: 'true when this event id was applied before' })),
}, { additionalProperties: false })

export type CheckoutInput = Static<typeof CheckoutBody>
export type BillingSummary = Static<typeof BillingSummaryResponse>

export const billingSchemas = [BillingLimit, BillingSummaryResponse, BillingRedirectResponse]
