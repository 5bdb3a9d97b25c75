// Billing: off by default (self-hosted, nothing limited); with Stripe configured, a per-seat
// subscription per workspace through Stripe Checkout and the billing portal, kept in step by
// Stripe's webhook. It owns billing_accounts and billing_events. It exports nothing for other
// modules to import: it fills `deps.ports.entitlements` (platform/ports.ts), which the workspace
// module calls before an invitation takes a seat and the sessions module before a recording starts.
import type { FastifyPluginAsync } from 'fastify'
import type { AppDeps } from '../../platform/deps.ts'
import { billingRoutes } from './routes.ts'
import { billingSchemas } from './schemas.ts'
import { entitlements } from './service.ts'
import { createStripeClient } from './stripe.ts'

export function billingModule(deps: AppDeps): FastifyPluginAsync {
  return async (app) => {
    const stripeConfig = deps.config.billing.stripe
    const stripe = stripeConfig ? await createStripeClient(stripeConfig) : undefined
    if (stripe) deps.ports.entitlements = entitlements(deps)
    for (const schema of billingSchemas) app.addSchema(schema)
    await billingRoutes(app, { deps, stripe, log: app.log })
  }
}
