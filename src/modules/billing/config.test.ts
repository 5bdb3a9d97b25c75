// Billing settings: off without a Stripe key; with one, its companions are required.
import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../../config.ts'

describe('billing configuration', () => {
  it('is off (self-hosted) by default, with 3 free seats for when it is on', () => {
    expect(loadConfig({}).billing).toEqual({ stripe: undefined, freeSeats: 3 })
  })

  it('reads Stripe settings, the API base split for the SDK', () => {
    const { billing } = loadConfig({
      STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_WEBHOOK_SECRET: 'whsec_1', STRIPE_PRICE_ID: 'price_1',
      STRIPE_API_BASE: 'http://127.0.0.1:12111/', BILLING_FREE_SEATS: '0',
    })
    expect(billing.freeSeats).toBe(0)
    expect(billing.stripe).toMatchObject({ secretKey: 'sk_test_1', webhookSecret: 'whsec_1', priceId: 'price_1' })
    expect(billing.stripe?.apiBase?.host).toBe('127.0.0.1:12111')
  })

  it('refuses a key without its webhook secret and price, and companions without a key', () => {
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'sk_test_1' })).toThrow(ConfigError)
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'sk_test_1' })).toThrow(/STRIPE_WEBHOOK_SECRET[\s\S]*STRIPE_PRICE_ID/)
    expect(() => loadConfig({ STRIPE_PRICE_ID: 'price_1' })).toThrow(/STRIPE_PRICE_ID: set STRIPE_SECRET_KEY too/)
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'sk', STRIPE_WEBHOOK_SECRET: 'w', STRIPE_PRICE_ID: 'p', STRIPE_API_BASE: 'ftp://x' })).toThrow(/STRIPE_API_BASE/)
    expect(() => loadConfig({ BILLING_FREE_SEATS: '-1' })).toThrow(/BILLING_FREE_SEATS/)
  })
})
