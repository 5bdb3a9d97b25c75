// Cross-site request refusal: a state-changing request that carries the session cookie must come
// from the service's own origin (or a trusted one); native clients send no Origin and pass.
import { beforeAll, expect, it } from 'vitest'
import { eachDatabase, type Client } from '../../../test/harness.ts'

const PUBLIC_URL = 'https://confer.example'

eachDatabase('cross-site request refusal', (h) => {
  let person: Client
  beforeAll(async () => {
    person = await h.signIn()
  })

  const renameFrom = (headers: Record<string, string>, name = 'Renamed') =>
    person.patch('/v1/account/profile', { name }, headers)

  it('refuses a PATCH with the cookie from a foreign Origin with 403 cross_site_request', async () => {
    const response = await renameFrom({ origin: 'https://evil.example' }, 'Evil')
    expect(response.statusCode).toBe(403)
    expect(response.headers['content-type']).toContain('application/problem+json')
    expect(response.json()).toMatchObject({ status: 403, code: 'cross_site_request' })
    const current = await person.get('/v1/account/current')
    expect(current.json().account.name).not.toBe('Evil')
  })

  it('refuses Origin: null and Sec-Fetch-Site: cross-site', async () => {
    const nullOrigin = await renameFrom({ origin: 'null' })
    expect(nullOrigin.statusCode).toBe(403)
    expect(nullOrigin.json()).toMatchObject({ code: 'cross_site_request' })
    const crossSite = await renameFrom({ 'sec-fetch-site': 'cross-site' })
    expect(crossSite.statusCode).toBe(403)
    expect(crossSite.json()).toMatchObject({ code: 'cross_site_request' })
  })

  it('refuses a look-alike of the public origin (other scheme, other port, suffix)', async () => {
    for (const origin of ['http://confer.example', 'https://confer.example:8443', 'https://confer.example.evil.example']) {
      const response = await renameFrom({ origin })
      expect(response.statusCode, origin).toBe(403)
    }
  })

  it('accepts the PUBLIC_URL origin and a same-origin fetch', async () => {
    const response = await renameFrom({ origin: PUBLIC_URL, 'sec-fetch-site': 'same-origin' }, 'From the web app')
    expect(response.statusCode).toBe(200)
    expect(response.json()).toMatchObject({ account: { name: 'From the web app' } })
  })

  it('accepts a TRUSTED_ORIGINS origin', async () => {
    const response = await renameFrom({ origin: 'https://app.example' }, 'From the trusted app')
    expect(response.statusCode).toBe(200)
    expect(response.json()).toMatchObject({ account: { name: 'From the trusted app' } })
  })

  it('accepts a request without Origin (a native client)', async () => {
    const response = await renameFrom({}, 'From the phone')
    expect(response.statusCode).toBe(200)
    expect(response.json()).toMatchObject({ account: { name: 'From the phone' } })
  })

  it('lets a GET with a foreign Origin through', async () => {
    const response = await person.get('/v1/account/current', { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toMatchObject({ account: { email: person.email } })
  })

  it('does not refuse a cross-site request without a cookie for being cross-site', async () => {
    const response = await h.anonymous.patch('/v1/account/profile', { name: 'Nobody' }, { origin: 'https://evil.example' })
    expect(response.statusCode).toBe(401)
    expect(response.json()).toMatchObject({ code: 'unauthenticated' })
  })

  it('refuses a cross-site sign-out on the auth routes and keeps the session', async () => {
    const signOut = await person.post('/api/auth/sign-out', {}, { origin: 'https://evil.example' })
    expect(signOut.statusCode).toBe(403)
    expect((await person.get('/v1/account/current')).statusCode).toBe(200)
  })
}, { env: { PUBLIC_URL, TRUSTED_ORIGINS: 'https://app.example' } })

// A new user opened http://127.0.0.1:8080 (or the IP address the start-up log prints) while
// PUBLIC_URL was its default http://localhost:8080, and sign-in said only "Invalid origin.".
eachDatabase('a PUBLIC_URL on this machine', (h) => {
  let person: Client
  beforeAll(async () => {
    person = await h.signIn()
  })

  it('takes the other loopback names of the same port as this server', async () => {
    for (const origin of ['http://127.0.0.1:18080', 'http://[::1]:18080', 'http://localhost:18080']) {
      const sent = await h.anonymous.post('/api/auth/email-otp/send-verification-otp', { email: 'loopback@example.com', type: 'sign-in' }, { origin })
      expect(sent.statusCode, origin).toBe(200)
      const renamed = await person.patch('/v1/account/profile', { name: 'Loopback' }, { origin })
      expect(renamed.statusCode, origin).toBe(200)
    }
  })

  it('refuses another address or port, saying which address to open', async () => {
    for (const origin of ['http://192.0.2.2:18080', 'http://127.0.0.1:9999']) {
      const sent = await h.anonymous.post('/api/auth/email-otp/send-verification-otp', { email: 'lan@example.com', type: 'sign-in' }, { origin })
      expect(sent.statusCode, origin).toBe(403)
      expect(sent.headers['content-type']).toContain('application/problem+json')
      expect(sent.json()).toMatchObject({ code: 'invalid_origin' })
      expect(sent.json().detail).toBe(`This page was opened at ${origin}, which is not this server's address http://localhost:18080 (PUBLIC_URL). ` +
        `Open http://localhost:18080/ instead, or add ${origin} to TRUSTED_ORIGINS.`)
      const renamed = await person.patch('/v1/account/profile', { name: 'LAN' }, { origin })
      expect(renamed.statusCode, origin).toBe(403)
      expect(renamed.json()).toMatchObject({ code: 'cross_site_request' })
      expect(renamed.json().detail).toContain('http://localhost:18080/')
    }
  })
}, { env: { PUBLIC_URL: 'http://localhost:18080' } })
