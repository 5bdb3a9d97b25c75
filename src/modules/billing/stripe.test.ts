// Billing with Stripe configured, driven through HTTP with the real SDK against a local stand-in
// for Stripe's API that validates every request against Stripe's published OpenAPI description
// (test/fixtures/stripe). Webhooks are signed with the SDK's test helper.
import Stripe from 'stripe'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eachDatabase, type Harness, type Member } from '../../../test/harness.ts'
import { checkoutCompleted, invoiceEvent, signed, stripeEvent, subscriptionEvent, type StripeEventBody } from '../../../test/fixtures/stripe/events.ts'
import { startStripeMock, type StripeMock } from '../../../test/fixtures/stripe/mock-server.ts'
import { invite, inviteAndJoin } from '../workspace/testing.ts'

const WEBHOOK_SECRET = 'whsec_test_confer_billing_secret'
const FREE_SEATS = 3

let mock: StripeMock
const options = { env: {} as Record<string, string> }

beforeAll(async () => {
  mock = await startStripeMock()
  Object.assign(options.env, {
    STRIPE_SECRET_KEY: mock.secretKey, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_PRICE_ID: mock.priceId,
    STRIPE_API_BASE: mock.url, BILLING_FREE_SEATS: String(FREE_SEATS),
  })
})
afterAll(async () => {
  await mock?.close()
})

function deliver(h: Harness, event: StripeEventBody, signing: { secret?: string; timestamp?: number; tamper?: boolean } = {}) {
  const { payload, signature } = signed(event, signing.secret ?? WEBHOOK_SECRET, signing.timestamp)
  return h.anonymous.request('POST', '/v1/billing/webhook', {
    payload: signing.tamper ? payload.replace('"livemode": false', '"livemode": true') : payload,
    headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature },
  })
}

async function delivered(h: Harness, event: StripeEventBody) {
  const response = await deliver(h, event)
  expect(response.statusCode, response.body).toBe(200)
  return response.json() as { received: true; duplicate?: boolean }
}

const summary = async (member: Member) => {
  const response = await member.get('/v1/billing')
  expect(response.statusCode, response.body).toBe(200)
  return response.json()
}

/** A workspace subscribed through checkout: the subscription, and Stripe's events announcing it. */
async function subscribe(h: Harness, owner: Member, quantity: number) {
  const subscription = mock.createSubscription({ workspaceId: owner.workspaceId, quantity })
  await delivered(h, checkoutCompleted(subscription, owner.workspaceId))
  return subscription
}

const iso = (seconds: number) => new Date(seconds * 1000).toISOString()

describe('the Stripe stand-in', () => {
  it('refuses what Stripe refuses: unknown and missing parameters, bad enums, wrong key', async () => {
    const base = new URL(mock.url)
    const client = (key: string) => new Stripe(key, { host: base.hostname, port: Number(base.port), protocol: 'http', maxNetworkRetries: 0 })
    const stripe = client(mock.secretKey)
    const valid = {
      mode: 'subscription' as const, line_items: [{ price: mock.priceId, quantity: 2 }],
      success_url: 'http://localhost:8080/billing', cancel_url: 'http://localhost:8080/billing',
    }
    expect((await stripe.checkout.sessions.create(valid)).url).toMatch(/^https:\/\//)
    const refusals = [
      stripe.checkout.sessions.create({ ...valid, not_a_stripe_param: 'x' } as never),
      stripe.checkout.sessions.create({ ...valid, mode: 'monthly' as never }),
      stripe.checkout.sessions.create({ ...valid, line_items: [{ price: mock.priceId, quantity: 'two' as never }] }),
      stripe.checkout.sessions.create({ ...valid, line_items: [{ price: 'price_unknown', quantity: 1 }] }),
      stripe.billingPortal.sessions.create({} as never),
      stripe.subscriptions.retrieve('sub_unknown'),
      client('sk_test_wrong').checkout.sessions.create(valid),
    ]
    const outcomes = await Promise.allSettled(refusals)
    const reasons = outcomes.map((outcome) => (outcome.status === 'rejected' ? (outcome.reason as Stripe.errors.StripeError) : undefined))
    expect(reasons.map((reason) => reason?.type)).toEqual([
      'StripeInvalidRequestError', 'StripeInvalidRequestError', 'StripeInvalidRequestError', 'StripeInvalidRequestError',
      'StripeInvalidRequestError', 'StripeInvalidRequestError', 'StripeAuthenticationError',
    ])
    expect(reasons[0]!.message).toContain('not_a_stripe_param')
    expect(reasons[4]!.message).toContain('customer')
    expect(reasons.map((reason) => reason?.statusCode)).toEqual([400, 400, 400, 404, 400, 404, 401])
  })
})

eachDatabase('billing with Stripe', (h) => {
  it('answers 401 without a session on every billing route but the webhook, before asking Stripe', async () => {
    const before = mock.requests.length
    for (const [method, url] of [['GET', '/v1/billing'], ['POST', '/v1/billing/checkout'], ['POST', '/v1/billing/portal']] as const) {
      const response = await h.anonymous.request(method, url, { payload: {} })
      expect(response.statusCode, url).toBe(401)
      expect(response.json().code).toBe('unauthenticated')
    }
    expect(mock.requests.length).toBe(before)
  })

  it('shows the free plan before any subscription: seats used and allowed, managers may manage', async () => {
    const owner = await h.member()
    const member = await inviteAndJoin(h, owner)
    expect(await summary(owner)).toEqual({
      billingEnabled: true, plan: 'free', status: 'none', seats: { used: 2, allowed: FREE_SEATS },
      cancelAtPeriodEnd: false, limits: [], canManage: true,
    })
    expect((await summary(member)).canManage).toBe(false)
  })

  it('starts a subscription checkout for the workspace: 200 with Stripe\'s URL, the request as Stripe takes it', async () => {
    const owner = await h.member()
    await invite(owner, { email: h.uniqueEmail('pending') })
    const before = mock.requests.length
    const response = await owner.post('/v1/billing/checkout', {})
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json().url).toMatch(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_/)
    const [sent] = mock.requests.slice(before)
    expect(sent).toMatchObject({
      operationId: 'PostCheckoutSessions',
      body: {
        mode: 'subscription', client_reference_id: owner.workspaceId, customer_email: owner.email,
        metadata: { workspaceId: owner.workspaceId }, subscription_data: { metadata: { workspaceId: owner.workspaceId } },
        line_items: [{ price: mock.priceId, quantity: 2 }],
        success_url: 'http://localhost:8080/billing?checkout=success', cancel_url: 'http://localhost:8080/billing?checkout=canceled',
      },
    })
    expect(sent!.headers.authorization).toBe(`Bearer ${mock.secretKey}`)
  })

  it('answers the same checkout page to a repeated Idempotency-Key, asking Stripe once', async () => {
    const owner = await h.member()
    const before = mock.requests.length
    const headers = { 'idempotency-key': `checkout-${owner.workspaceId}` }
    const first = await owner.post('/v1/billing/checkout', { seats: 4 }, headers)
    const again = await owner.post('/v1/billing/checkout', { seats: 4 }, headers)
    expect([first.statusCode, again.statusCode]).toEqual([200, 200])
    expect(again.json().url).toBe(first.json().url)
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(mock.requests.length - before).toBe(1)
    expect((await owner.post('/v1/billing/checkout', { seats: 5 }, headers)).statusCode).toBe(422)
  })

  it('checks checkout input: 400 on a body of the wrong shape or fewer seats than in use, 403 for members', async () => {
    const owner = await h.member()
    const member = await inviteAndJoin(h, owner)
    const before = mock.requests.length
    for (const body of [{ seats: 0 }, { seats: 1.5 }, { price: 'price_other' }]) {
      const response = await owner.post('/v1/billing/checkout', body)
      expect(response.statusCode, JSON.stringify(body)).toBe(400)
      expect(response.json().code).toBe('validation_failed')
    }
    const tooFew = await owner.post('/v1/billing/checkout', { seats: 1 })
    expect(tooFew.statusCode).toBe(400)
    expect(tooFew.json().errors).toEqual([expect.objectContaining({ field: 'seats', code: 'below_seats_used' })])
    const forbidden = await member.post('/v1/billing/checkout', { seats: 5 })
    expect(forbidden.statusCode).toBe(403)
    expect(forbidden.json().code).toBe('forbidden')
    expect(mock.requests.length, 'nothing reached Stripe').toBe(before)
  })

  it('answers 503 when Stripe keeps failing, and says nothing of the key', async () => {
    const owner = await h.member()
    mock.failNext(3)
    const response = await owner.post('/v1/billing/checkout', {})
    expect(response.statusCode).toBe(503)
    expect(response.json().code).toBe('service_unavailable')
    expect(response.body).not.toContain(mock.secretKey)
    mock.failNext(0)
  })

  it('applies a completed checkout: team plan, paid seats, period end; a second checkout is refused', async () => {
    const owner = await h.member()
    const subscription = await subscribe(h, owner, 5)
    expect(await summary(owner)).toEqual({
      billingEnabled: true, plan: 'team', status: 'active', seats: { used: 1, allowed: 5 },
      currentPeriodEnd: iso(subscription.items.data[0]!.current_period_end), cancelAtPeriodEnd: false, limits: [], canManage: true,
    })
    const again = await owner.post('/v1/billing/checkout', {})
    expect(again.statusCode).toBe(409)
    expect(again.json()).toMatchObject({ code: 'already_subscribed', status: 409, subscriptionStatus: 'active' })
  })

  it('opens the billing portal for the workspace\'s customer; 409 before any subscription, 403 for members', async () => {
    const owner = await h.member()
    const member = await inviteAndJoin(h, owner)
    const early = await owner.post('/v1/billing/portal', {})
    expect(early.statusCode).toBe(409)
    expect(early.json().code).toBe('no_subscription')
    const subscription = await subscribe(h, owner, 3)
    const before = mock.requests.length
    const response = await owner.post('/v1/billing/portal', {})
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json().url).toMatch(/^https:\/\/billing\.stripe\.test\/p\/session\//)
    expect(mock.requests.slice(before)).toEqual([expect.objectContaining({
      operationId: 'PostBillingPortalSessions', body: { customer: subscription.customer, return_url: 'http://localhost:8080/billing' },
    })])
    expect((await member.post('/v1/billing/portal', {})).statusCode).toBe(403)
    expect((await owner.post('/v1/billing/portal', { customer: 'cus_other' })).statusCode).toBe(400)
  })

  it('keeps workspaces apart: one workspace\'s subscription changes nothing in another', async () => {
    const owner = await h.member()
    const stranger = await h.member()
    await subscribe(h, owner, 8)
    expect(await summary(stranger)).toMatchObject({ plan: 'free', status: 'none', seats: { used: 1, allowed: FREE_SEATS } })
    expect((await stranger.post('/v1/billing/portal', {})).json().code).toBe('no_subscription')
  })

  it('ends in Stripe\'s newest state after a shuffled, duplicated, partly concurrent replay of the lifecycle', async () => {
    const owner = await h.member()
    const subscription = mock.createSubscription({ workspaceId: owner.workspaceId, quantity: 2, status: 'incomplete' })
    const early = [checkoutCompleted(subscription, owner.workspaceId), subscriptionEvent('created', subscription)]
    const paid = mock.updateSubscription(subscription.id, { status: 'active' })
    early.push(invoiceEvent('paid', paid), subscriptionEvent('updated', paid))
    // Part of the story arrives while it happens...
    await delivered(h, early[3]!)
    expect(await summary(owner)).toMatchObject({ plan: 'team', status: 'active', seats: { allowed: 3 } })
    const grown = mock.updateSubscription(subscription.id, { quantity: 6 })
    const failing = mock.updateSubscription(subscription.id, { status: 'past_due' })
    const late = [subscriptionEvent('updated', grown), invoiceEvent('payment_failed', failing), subscriptionEvent('updated', failing)]
    const periodEnd = Math.floor(Date.now() / 1000) + 60 * 86_400
    const final = mock.updateSubscription(subscription.id, { status: 'active', periodEnd, cancelAtPeriodEnd: true })
    late.push(invoiceEvent('paid', final), subscriptionEvent('updated', final), stripeEvent('customer.updated', { id: final.customer, object: 'customer' }))
    // ...the rest, and every event again, arrive shuffled, some at once.
    const all = [...early, ...late]
    const deliveries = shuffle([...all, ...all, early[0]!, late[1]!], 20261124)
    const answers = []
    for (let index = 0; index < deliveries.length; index += 3) {
      answers.push(...await Promise.all(deliveries.slice(index, index + 3).map((event) => deliver(h, event))))
    }
    expect(answers.map((answer) => answer.statusCode)).toEqual(deliveries.map(() => 200))
    // Every event's first delivery is applied, except the one that arrived while things happened.
    expect(answers.filter((answer) => answer.json().duplicate === true)).toHaveLength(deliveries.length - all.length + 1)
    expect(await summary(owner)).toEqual({
      billingEnabled: true, plan: 'team', status: 'active', seats: { used: 1, allowed: 6 },
      currentPeriodEnd: iso(periodEnd), cancelAtPeriodEnd: true, limits: [], canManage: true,
    })
    const recorded = await h.database.db.selectFrom('billing_events').select(['id', 'outcome', 'workspace_id'])
      .where('id', 'in', all.map((event) => event.id)).execute()
    expect(recorded).toHaveLength(all.length)
    expect(recorded.find((row) => row.id === late[5]!.id)).toMatchObject({ outcome: 'ignored', workspace_id: null })
  })

  it('never lets a read of Stripe that started earlier overwrite a newer one', async () => {
    const owner = await h.member()
    const subscription = await subscribe(h, owner, 4)
    const held = mock.holdNextRetrieve()
    const slow = deliver(h, subscriptionEvent('updated', subscription))
    await held.arrived
    // Stripe answers the slow read with 4 seats; meanwhile the subscription grows and is announced.
    const grown = mock.updateSubscription(subscription.id, { quantity: 9 })
    await delivered(h, subscriptionEvent('updated', grown))
    held.release()
    expect((await slow).statusCode).toBe(200)
    expect((await summary(owner)).seats).toEqual({ used: 1, allowed: 9 })
  })

  it('refuses forged, stale, tampered and unsigned deliveries with 400 and applies nothing', async () => {
    const owner = await h.member()
    const subscription = mock.createSubscription({ workspaceId: owner.workspaceId, quantity: 7 })
    const event = checkoutCompleted(subscription, owner.workspaceId)
    const attempts = [
      await deliver(h, event, { secret: 'whsec_forged' }),
      await deliver(h, event, { timestamp: Math.floor(Date.now() / 1000) - 10 * 60 }),
      await deliver(h, event, { tamper: true }),
      await h.anonymous.request('POST', '/v1/billing/webhook', { payload: JSON.stringify(event), headers: { 'content-type': 'application/json' } }),
      await h.anonymous.request('POST', '/v1/billing/webhook', { payload: JSON.stringify(event), headers: { 'content-type': 'application/json', 'stripe-signature': 'garbage' } }),
    ]
    for (const attempt of attempts) {
      expect(attempt.statusCode, attempt.body).toBe(400)
      expect(attempt.json().code).toBe('invalid_signature')
    }
    expect(await h.database.db.selectFrom('billing_events').selectAll().where('id', '=', event.id).execute()).toEqual([])
    expect(await summary(owner)).toMatchObject({ plan: 'free', status: 'none' })
    // The same event, signed properly, is applied: the refusals above were about the signature.
    await delivered(h, event)
    expect(await summary(owner)).toMatchObject({ plan: 'team', seats: { allowed: 7 } })
  })

  it('answers 503 when Stripe cannot confirm the subscription, records nothing, and applies the redelivery', async () => {
    const owner = await h.member()
    const subscription = mock.createSubscription({ workspaceId: owner.workspaceId, quantity: 4 })
    const event = checkoutCompleted(subscription, owner.workspaceId)
    mock.failNext(3)
    const failed = await deliver(h, event)
    mock.failNext(0)
    expect(failed.statusCode).toBe(503)
    expect(failed.json().code).toBe('service_unavailable')
    expect(await h.database.db.selectFrom('billing_events').selectAll().where('id', '=', event.id).execute()).toEqual([])
    expect(await delivered(h, event)).toEqual({ received: true })
    expect(await summary(owner)).toMatchObject({ plan: 'team', seats: { allowed: 4 } })
  })

  it('acknowledges events it does not track: other types, unknown subscriptions and workspaces', async () => {
    const owner = await h.member()
    const foreign = mock.createSubscription({ workspaceId: 'wsp_01JAAAAAAAAAAAAAAAAAAAAAAA', quantity: 2 })
    const events = [
      stripeEvent('payment_intent.succeeded', { id: 'pi_test_1', object: 'payment_intent' }),
      subscriptionEvent('updated', foreign),
      subscriptionEvent('updated', { ...foreign, id: 'sub_test_unknown_to_stripe', metadata: { workspaceId: owner.workspaceId } }),
    ]
    for (const event of events) expect(await delivered(h, event)).toEqual({ received: true })
    expect(await summary(owner)).toMatchObject({ plan: 'free', status: 'none' })
  })

  it('limits invitations to the seats: 402 seat_limit_reached, one winner when invitations race', async () => {
    const owner = await h.member()
    await invite(owner, { email: h.uniqueEmail('second') })
    const racing = await Promise.all(Array.from({ length: 4 }, () => owner.post('/v1/workspace/invitations', { email: h.uniqueEmail('racer') })))
    expect(racing.map((response) => response.statusCode).sort()).toEqual([200, 402, 402, 402])
    const refused = racing.find((response) => response.statusCode === 402)!
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(refused.json()).toMatchObject({ code: 'seat_limit_reached', plan: 'free' })
    expect(await summary(owner)).toMatchObject({
      seats: { used: FREE_SEATS, allowed: FREE_SEATS },
      limits: [expect.objectContaining({ feature: 'invitations', code: 'seat_limit_reached' })],
    })
    // Paying for more seats lifts the limit.
    await subscribe(h, owner, 5)
    expect((await owner.post('/v1/workspace/invitations', { email: h.uniqueEmail('paid') })).statusCode).toBe(200)
  })

  it('after the subscription lapses keeps every recording and member, and only holds new work back', async () => {
    const owner = await h.member()
    const subscription = await subscribe(h, owner, 5)
    const colleague = await inviteAndJoin(h, owner)
    await inviteAndJoin(h, owner)
    await invite(owner, { email: h.uniqueEmail('pending') })
    const recorded = await colleague.post('/v1/sessions', { captureMode: 'microphone' })
    expect(recorded.statusCode).toBe(200)
    expect((await colleague.post(`/v1/sessions/${recorded.json().id}/end`)).statusCode).toBe(200)

    await delivered(h, subscriptionEvent('deleted', mock.updateSubscription(subscription.id, { status: 'canceled' })))
    expect(await summary(owner)).toMatchObject({
      plan: 'free', status: 'canceled', seats: { used: 4, allowed: FREE_SEATS },
      limits: [
        expect.objectContaining({ feature: 'invitations', code: 'seat_limit_reached' }),
        expect.objectContaining({ feature: 'recording', code: 'plan_inactive' }),
      ],
    })
    const held = await owner.post('/v1/sessions', { captureMode: 'microphone' })
    expect(held.statusCode).toBe(402)
    expect(held.json()).toMatchObject({ code: 'plan_inactive', status: 402, plan: 'free', subscriptionStatus: 'canceled' })
    expect((await owner.post('/v1/workspace/invitations', { email: h.uniqueEmail('more') })).json().code).toBe('seat_limit_reached')
    // Nothing was lost: the recording and the members are all there.
    expect((await colleague.get(`/v1/sessions/${recorded.json().id}`)).statusCode).toBe(200)
    expect((await owner.get('/v1/workspace/members')).json().members).toHaveLength(3)
    // A new checkout is allowed again, and a new subscription lifts the limits.
    expect((await owner.post('/v1/billing/checkout', {})).statusCode).toBe(200)
    const renewed = mock.createSubscription({ workspaceId: owner.workspaceId, customer: String(subscription.customer), quantity: 6 })
    await delivered(h, checkoutCompleted(renewed, owner.workspaceId))
    // The old subscription's late events do not bring the lapse back.
    await delivered(h, subscriptionEvent('deleted', mock.subscription(subscription.id)))
    expect(await summary(owner)).toMatchObject({ plan: 'team', status: 'active', seats: { allowed: 6 }, limits: [] })
    expect((await owner.post('/v1/sessions', { captureMode: 'microphone' })).statusCode).toBe(200)
  })
}, options)

/** A deterministic Fisher–Yates shuffle (mulberry32), so a failure replays the same order. */
function shuffle<T>(items: T[], seed: number): T[] {
  let state = seed
  const random = () => {
    state = (state + 0x6d2b79f5) | 0
    let t = Math.imul(state ^ (state >>> 15), 1 | state)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
  for (let index = items.length - 1; index > 0; index -= 1) {
    const other = Math.floor(random() * (index + 1))
    ;[items[index], items[other]] = [items[other]!, items[index]!]
  }
  return items
}
