// Billing routes: the summary for every member, checkout and portal for managers, and Stripe's
// webhook (public; its signature is the permission), which takes the raw body.
import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { memberOf } from '../../platform/http/guards.ts'
import { problems } from '../../platform/http/problem.ts'
import { TAGS } from '../../platform/http/tags.ts'
import * as schemas from './schemas.ts'
import { billingSummary, openPortal, startCheckout, type BillingContext } from './service.ts'
import { receiveWebhook } from './webhook.ts'

const tags = [TAGS.billing]
/** Stripe delivers bursts from a few addresses: more than the default per-IP limit of public routes. */
const WEBHOOKS_PER_MINUTE = 1200
/** Stripe's events are well under this; the same as the JSON body limit (DESIGN §3). */
const WEBHOOK_BODY_LIMIT = 1024 * 1024

export async function billingRoutes(base: FastifyInstance, context: BillingContext) {
  const app = base.withTypeProvider<TypeBoxTypeProvider>()

  app.get('/v1/billing', {
    schema: {
      operationId: 'getBilling', tags,
      summary: 'The workspace\'s plan, subscription status, seats used (members and pending invitations) and allowed, period end, and what is limited now. Self-hosted (no Stripe configured): plan `self-hosted`, nothing limited.',
      response: { 200: Type.Ref('BillingSummaryResponse'), ...problems(401, 403, 429) },
    },
    config: { access: 'view' },
  }, (request) => billingSummary(context, memberOf(request).membership))

  app.post('/v1/billing/checkout', {
    schema: {
      operationId: 'startBillingCheckout', tags,
      summary: 'Managers: a Stripe Checkout page for a per-seat subscription of this workspace (`seats`, default the seats in use); answers its `url`. Accepts `Idempotency-Key`. 409 `billing_disabled` when the server is self-hosted, 409 `already_subscribed` when a subscription is live (use the portal), 503 when Stripe cannot be reached.',
      headers: Type.Object({ 'idempotency-key': Type.Optional(Type.String({ minLength: 1, maxLength: 255 })) }),
      body: schemas.CheckoutBody,
      response: { 200: Type.Ref('BillingRedirectResponse'), ...problems(400, 401, 403, 409, 422, 429, 503) },
    },
    // A double click with the same key gets the same checkout page (sessions last 24 h, as replays do).
    config: { access: 'manage', idempotent: true },
  }, (request) => {
    const { actor, membership } = memberOf(request)
    return startCheckout(context, actor, membership, request.body ?? {})
  })

  app.post('/v1/billing/portal', {
    schema: {
      operationId: 'openBillingPortal', tags,
      summary: 'Managers: a Stripe billing portal page for this workspace\'s customer (seats, payment method, invoices, cancellation); answers its `url`. 409 `billing_disabled` when self-hosted, 409 `no_subscription` before the first checkout.',
      body: schemas.PortalBody,
      response: { 200: Type.Ref('BillingRedirectResponse'), ...problems(400, 401, 403, 409, 429, 503) },
    },
    config: { access: 'manage' },
  }, (request) => openPortal(context, memberOf(request).membership))

  // The signature covers the exact bytes Stripe sent: this route alone reads its body raw.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers()
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT }, (_request, body, done) => done(null, body))
    scope.withTypeProvider<TypeBoxTypeProvider>().post('/v1/billing/webhook', {
      schema: {
        operationId: 'receiveBillingWebhook', tags,
        summary: 'Public, for Stripe: an event signed with the endpoint\'s secret (`Stripe-Signature`, 5-minute tolerance); 400 `invalid_signature` otherwise. Handled: `checkout.session.completed`, `customer.subscription.created|updated|deleted`, `invoice.paid`, `invoice.payment_failed` (the subscription is read again from Stripe); other events are acknowledged and ignored; a repeated event id answers `duplicate: true`. 404 when billing is not configured.',
        response: { 200: schemas.WebhookAck, ...problems(400, 404, 413, 429, 503) },
      },
      config: { access: 'public', rateLimit: { max: WEBHOOKS_PER_MINUTE, timeWindow: 60_000 } },
    }, (request) => {
      const signature = request.headers['stripe-signature']
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0)
      return receiveWebhook(context, body, typeof signature === 'string' ? signature : undefined)
    })
  })
}
