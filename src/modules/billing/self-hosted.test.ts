// Billing on a server without Stripe: self-hosted, nothing limited, checkout and portal refused
// with billing_disabled, the webhook absent (404).
import { expect, it } from 'vitest'
import { eachDatabase } from '../../../test/harness.ts'
import { inviteAndJoin } from '../workspace/testing.ts'

eachDatabase('billing, self-hosted', (h) => {
  it('answers 401 without a session on every billing route but the webhook', async () => {
    for (const [method, url] of [['GET', '/v1/billing'], ['POST', '/v1/billing/checkout'], ['POST', '/v1/billing/portal']] as const) {
      const response = await h.anonymous.request(method, url)
      expect(response.statusCode, url).toBe(401)
      expect(response.json().code).toBe('unauthenticated')
    }
  })

  it('shows the self-hosted plan with every seat counted and nothing limited', async () => {
    const owner = await h.member()
    await inviteAndJoin(h, owner)
    await owner.post('/v1/workspace/invitations', { email: h.uniqueEmail('pending') })
    const response = await owner.get('/v1/billing')
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({
      billingEnabled: false, plan: 'self-hosted', status: 'active', seats: { used: 3 },
      cancelAtPeriodEnd: false, limits: [], canManage: false,
    })
  })

  it('lets a view member read the summary', async () => {
    const owner = await h.member()
    const viewer = await inviteAndJoin(h, owner, { contentPermission: 'view' })
    const response = await viewer.get('/v1/billing')
    expect(response.statusCode).toBe(200)
    expect(response.json()).toMatchObject({ plan: 'self-hosted', seats: { used: 2 } })
  })

  it('refuses checkout and portal with 409 billing_disabled for a manager, 403 for a member', async () => {
    const owner = await h.member()
    const member = await inviteAndJoin(h, owner)
    for (const url of ['/v1/billing/checkout', '/v1/billing/portal']) {
      const refused = await owner.post(url, {})
      expect(refused.statusCode, url).toBe(409)
      expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/)
      expect(refused.json()).toMatchObject({ code: 'billing_disabled', status: 409 })
      const forbidden = await member.post(url, {})
      expect(forbidden.statusCode, url).toBe(403)
      expect(forbidden.json().code).toBe('forbidden')
    }
  })

  it('answers 400 to a checkout body of the wrong shape', async () => {
    const owner = await h.member()
    for (const body of [{ seats: 0 }, { seats: 'two' }, { plan: 'team' }]) {
      const response = await owner.post('/v1/billing/checkout', body)
      expect(response.statusCode, JSON.stringify(body)).toBe(400)
      expect(response.json().code).toBe('validation_failed')
    }
    expect((await owner.post('/v1/billing/portal', { returnUrl: 'https://elsewhere.example' })).statusCode).toBe(400)
  })

  it('answers 404 on the webhook, signed or not, and records nothing', async () => {
    const response = await h.anonymous.request('POST', '/v1/billing/webhook', {
      payload: JSON.stringify({ id: 'evt_1', type: 'invoice.paid' }),
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=abc' },
    })
    expect(response.statusCode).toBe(404)
    expect(response.json().code).toBe('not_found')
    expect(await h.database.db.selectFrom('billing_events').selectAll().execute()).toEqual([])
  })

  it('never limits invitations or recordings', async () => {
    const owner = await h.member()
    for (let index = 0; index < 5; index += 1) {
      expect((await owner.post('/v1/workspace/invitations', { email: h.uniqueEmail('many') })).statusCode).toBe(200)
    }
    expect((await owner.post('/v1/sessions', { captureMode: 'microphone' })).statusCode).toBe(200)
  })
})
