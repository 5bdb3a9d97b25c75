// The session cookie (interface §5.1): `__Secure-service-auth.session_token; HttpOnly; Secure;
// SameSite=Lax` when PUBLIC_URL is https, the same without `__Secure-` and `Secure` over http.
import type { LightMyRequestResponse } from 'fastify'
import { expect, it } from 'vitest'
import { eachDatabase, sessionCookie, type Harness } from '../../../test/harness.ts'

async function signInResponse(h: Harness, email: string): Promise<LightMyRequestResponse> {
  expect((await h.sendCode(email)).statusCode).toBe(200)
  const otp = await h.latestCode(email)
  const response = await h.app.inject({ method: 'POST', url: '/api/auth/sign-in/email-otp', payload: { email, otp } })
  expect(response.statusCode).toBe(200)
  return response
}

function sessionSetCookie(response: LightMyRequestResponse): string {
  const header = response.headers['set-cookie']
  const cookies = Array.isArray(header) ? header : header ? [header] : []
  const session = cookies.find((cookie) => cookie.split('=')[0]!.endsWith('session_token'))
  if (!session) throw new Error(`no session cookie among ${JSON.stringify(cookies)}`)
  return session
}

const attributes = (cookie: string) => cookie.split(';').slice(1).map((part) => part.trim().toLowerCase())

eachDatabase('session cookie over http', (h) => {
  it('is service-auth.session_token, HttpOnly, SameSite=Lax and not Secure', async () => {
    const email = h.uniqueEmail()
    const cookie = sessionSetCookie(await signInResponse(h, email))
    expect(cookie).toMatch(/^service-auth\.session_token=[^;]+;/)
    expect(attributes(cookie)).toEqual(expect.arrayContaining(['httponly', 'samesite=lax', 'path=/']))
    expect(attributes(cookie)).not.toContain('secure')
  })
})

eachDatabase('session cookie over https', (h) => {
  it('is __Secure-service-auth.session_token; HttpOnly; Secure; SameSite=Lax', async () => {
    const email = h.uniqueEmail()
    const cookie = sessionSetCookie(await signInResponse(h, email))
    expect(cookie).toMatch(/^__Secure-service-auth\.session_token=[^;]+;/)
    expect(attributes(cookie)).toEqual(expect.arrayContaining(['httponly', 'secure', 'samesite=lax', 'path=/']))
    expect(cookie).not.toMatch(/domain=/i)
  })

  it('signs requests in with that cookie, and not with the http name', async () => {
    const email = h.uniqueEmail()
    const cookie = sessionCookie(await signInResponse(h, email))
    expect(cookie.startsWith('__Secure-service-auth.session_token=')).toBe(true)

    const current = await h.app.inject({ method: 'GET', url: '/v1/account/current', headers: { cookie } })
    expect(current.statusCode).toBe(200)
    expect(current.json()).toMatchObject({ account: { email } })

    const wrongName = cookie.replace(/^__Secure-/, '')
    const refused = await h.app.inject({ method: 'GET', url: '/v1/account/current', headers: { cookie: wrongName } })
    expect(refused.statusCode).toBe(401)
    expect(refused.headers['content-type']).toContain('application/problem+json')
    expect(refused.json()).toMatchObject({ code: 'unauthenticated' })
  })

  it('ends the session on sign-out: the cookie is cleared and no longer signs in', async () => {
    const email = h.uniqueEmail()
    const cookie = sessionCookie(await signInResponse(h, email))
    const signOut = await h.app.inject({
      method: 'POST', url: '/api/auth/sign-out', payload: {},
      headers: { cookie, origin: 'https://confer.example' },
    })
    expect(signOut.statusCode).toBe(200)
    const cleared = sessionSetCookie(signOut)
    expect(cleared).toMatch(/^__Secure-service-auth\.session_token=;/)
    expect(attributes(cleared)).toContain('max-age=0')

    const after = await h.app.inject({ method: 'GET', url: '/v1/account/current', headers: { cookie } })
    expect(after.statusCode).toBe(401)
  })
}, { env: { PUBLIC_URL: 'https://confer.example' } })
