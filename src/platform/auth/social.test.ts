// Sign-in through an external identity provider (interface §5.3): the authorize URL and its
// redirect_uri, the callback's state check, which callback URLs are trusted (web origins and the
// native deep-link scheme), and a whole OpenID Connect code flow against an in-process test provider.
import type { LightMyRequestResponse } from 'fastify'
import { afterAll, expect, it } from 'vitest'
import { eachDatabase, sessionCookie, type Harness } from '../../../test/harness.ts'
import { startOidcTestProvider } from '../../../test/oidc-test-provider.ts'

const PUBLIC_URL = 'http://localhost:8080'
const oidc = await startOidcTestProvider()
afterAll(() => oidc.close())

const providerEnv = {
  PUBLIC_URL,
  GITHUB_CLIENT_ID: 'github-client-id',
  GITHUB_CLIENT_SECRET: 'github-client-secret',
  GOOGLE_CLIENT_ID: 'google-client-id.apps.googleusercontent.com',
  GOOGLE_CLIENT_SECRET: 'google-client-secret',
  OIDC_PROVIDER_ID: 'test-oidc',
  OIDC_DISCOVERY_URL: oidc.discoveryUrl,
  OIDC_CLIENT_ID: oidc.clientId,
  OIDC_CLIENT_SECRET: oidc.clientSecret,
}

const startSignIn = (h: Harness, body: Record<string, unknown>) =>
  h.app.inject({ method: 'POST', url: '/api/auth/sign-in/social', payload: body })

function authorizeUrl(response: LightMyRequestResponse): URL {
  expect(response.statusCode).toBe(200)
  const body = response.json()
  expect(body.redirect).toBe(true)
  return new URL(body.url)
}

/** `name=value; …` of every cookie a response set, to send back like a browser would. */
function cookiesOf(response: LightMyRequestResponse): string {
  const header = response.headers['set-cookie']
  const cookies = Array.isArray(header) ? header : header ? [header] : []
  return cookies.map((cookie) => cookie.split(';')[0]).join('; ')
}

eachDatabase('social sign-in', (h) => {
  it('starts GitHub sign-in with GitHub\'s authorize URL and our callback as redirect_uri', async () => {
    const url = authorizeUrl(await startSignIn(h, { provider: 'github', callbackURL: `${PUBLIC_URL}/after` }))
    expect(url.origin + url.pathname).toBe('https://github.com/login/oauth/authorize')
    expect(url.searchParams.get('client_id')).toBe('github-client-id')
    expect(url.searchParams.get('redirect_uri')).toBe(`${PUBLIC_URL}/api/auth/callback/github`)
    expect(url.searchParams.get('state')).toBeTruthy()
  })

  it('starts Google sign-in with Google\'s authorize URL and our callback as redirect_uri', async () => {
    const url = authorizeUrl(await startSignIn(h, { provider: 'google', callbackURL: `${PUBLIC_URL}/after` }))
    expect(url.hostname).toBe('accounts.google.com')
    expect(url.searchParams.get('client_id')).toBe('google-client-id.apps.googleusercontent.com')
    expect(url.searchParams.get('redirect_uri')).toBe(`${PUBLIC_URL}/api/auth/callback/google`)
    expect(url.searchParams.get('response_type')).toBe('code')
    expect(url.searchParams.get('code_challenge_method')).toBe('S256')
  })

  it('refuses a provider that is not configured', async () => {
    const response = await startSignIn(h, { provider: 'apple', callbackURL: `${PUBLIC_URL}/after` })
    expect(response.statusCode).toBe(404)
    expect(response.json()).toMatchObject({ code: 'provider_not_found' })
  })

  it('redirects a callback with a bad state to the error page with state_mismatch', async () => {
    const started = await startSignIn(h, { provider: 'github', callbackURL: `${PUBLIC_URL}/after` })
    const response = await h.app.inject({
      method: 'GET', url: '/api/auth/callback/github?code=some-code&state=not-the-state', headers: { cookie: cookiesOf(started) },
    })
    expect(response.statusCode).toBe(302)
    expect(response.headers.location).toContain('error=state_mismatch')
    expect(response.headers['set-cookie'] ?? '').not.toMatch(/session_token=[^;]/)
  })

  it('accepts a callback on the native deep-link scheme', async () => {
    const url = authorizeUrl(await startSignIn(h, { provider: 'github', callbackURL: 'confer://auth/done' }))
    expect(url.hostname).toBe('github.com')
  })

  it('refuses a callback on an untrusted origin, on another deep-link scheme, or on an origin trusted elsewhere', async () => {
    for (const callbackURL of ['https://evil.example/', 'other-app://auth/done', 'https://app.example/after']) {
      const response = await startSignIn(h, { provider: 'github', callbackURL })
      expect(response.statusCode, callbackURL).toBe(403)
      expect(response.json(), callbackURL).toMatchObject({ code: 'invalid_callback_url' })
    }
  })

  it('starts OpenID Connect sign-in at the discovered authorization_endpoint', async () => {
    const url = authorizeUrl(await startSignIn(h, { provider: 'test-oidc', callbackURL: `${PUBLIC_URL}/after` }))
    expect(url.origin + url.pathname).toBe(`${oidc.issuer}/authorize`)
    expect(url.searchParams.get('client_id')).toBe(oidc.clientId)
    expect(url.searchParams.get('redirect_uri')).toBe(`${PUBLIC_URL}/api/auth/callback/test-oidc`)
    expect(url.searchParams.get('scope')?.split(' ')).toEqual(expect.arrayContaining(['openid', 'email', 'profile']))
    expect(url.searchParams.get('code_challenge')).toBeTruthy()
    expect(url.searchParams.get('nonce')).toBeTruthy()
  })

  it('completes the OpenID Connect code flow: the callback signs the person in', async () => {
    const person = { sub: `sub-${h.kind}-${Date.now()}`, email: h.uniqueEmail('oidc'), name: 'Ada Provider' }
    oidc.nextPerson = person
    const started = await startSignIn(h, { provider: 'test-oidc', callbackURL: `${PUBLIC_URL}/after` })
    const authorize = authorizeUrl(started)

    // The browser's part: visit the provider, follow its redirect back to our callback.
    const atProvider = await fetch(authorize, { redirect: 'manual' })
    expect(atProvider.status).toBe(302)
    const back = new URL(atProvider.headers.get('location')!)
    expect(back.origin + back.pathname).toBe(`${PUBLIC_URL}/api/auth/callback/test-oidc`)

    const callback = await h.app.inject({ method: 'GET', url: back.pathname + back.search, headers: { cookie: cookiesOf(started) } })
    expect(callback.statusCode).toBe(302)
    expect(callback.headers.location).toBe(`${PUBLIC_URL}/after`)
    const tokenRequest = oidc.tokenRequests.at(-1)!
    expect(tokenRequest).toMatchObject({ clientId: oidc.clientId, clientSecret: oidc.clientSecret, grantType: 'authorization_code', hadCodeVerifier: true })

    const cookie = sessionCookie(callback)
    const current = await h.app.inject({ method: 'GET', url: '/v1/account/current', headers: { cookie } })
    expect(current.statusCode).toBe(200)
    expect(current.json()).toMatchObject({ account: { email: person.email, name: person.name } })
  })

  it('does not sign in when the provider\'s code is replayed', async () => {
    oidc.nextPerson = { sub: `sub-replay-${h.kind}`, email: h.uniqueEmail('replay'), name: 'Replay' }
    const started = await startSignIn(h, { provider: 'test-oidc', callbackURL: `${PUBLIC_URL}/after` })
    const back = new URL((await fetch(authorizeUrl(started), { redirect: 'manual' })).headers.get('location')!)
    const first = await h.app.inject({ method: 'GET', url: back.pathname + back.search, headers: { cookie: cookiesOf(started) } })
    expect(first.headers.location).toBe(`${PUBLIC_URL}/after`)
    const replay = await h.app.inject({ method: 'GET', url: back.pathname + back.search, headers: { cookie: cookiesOf(started) } })
    expect(replay.statusCode).toBe(302)
    expect(replay.headers.location).toMatch(/error=/)
    expect(replay.headers['set-cookie'] ?? '').not.toMatch(/session_token=[^;]/)
  })
}, { env: providerEnv })

eachDatabase('social sign-in with TRUSTED_ORIGINS', (h) => {
  it('accepts a callback on a trusted web origin and still refuses others', async () => {
    const url = authorizeUrl(await startSignIn(h, { provider: 'github', callbackURL: 'https://app.example/after' }))
    expect(url.searchParams.get('redirect_uri')).toBe(`${PUBLIC_URL}/api/auth/callback/github`)
    const evil = await startSignIn(h, { provider: 'github', callbackURL: 'https://evil.example/' })
    expect(evil.statusCode).toBe(403)
  })
}, { env: { ...providerEnv, TRUSTED_ORIGINS: 'https://app.example' } })
