// Sign-in end to end against the real server process: the code travels over real SMTP, the
// session cookie over real HTTP — once with plain fetch, once with better-auth's own client.
import { request } from 'node:http'
import { createAuthClient } from 'better-auth/client'
import { emailOTPClient } from 'better-auth/client/plugins'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { databaseKinds } from '../databases.ts'
import { postJson, startMailCatcher, startServer, type MailCatcher, type RunningServer } from './server.ts'

const uniqueEmail = (label: string) => `${label}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}@example.com`

describe.each(databaseKinds)('sign-in against the real server [%s]', (kind) => {
  let mail: MailCatcher
  let server: RunningServer

  beforeAll(async () => {
    mail = await startMailCatcher()
    server = await startServer(kind, { SMTP_URL: mail.url })
  })
  afterAll(async () => {
    await server?.stop()
    await mail?.close()
  })

  it('reports SMTP delivery and the database in /healthz', async () => {
    const response = await fetch(`${server.baseUrl}/healthz`)
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ status: 'ok', mail: 'smtp', database: { dialect: kind, reachable: true } })
  })

  it('signs in with plain fetch from the web origin: code by mail, sign-in, bootstrap, current account', async () => {
    const email = uniqueEmail('fetch')
    // What a browser on PUBLIC_URL sends with every POST.
    const origin = { origin: server.baseUrl }
    const seen = mail.messages.length
    const sent = await postJson(`${server.baseUrl}/api/auth/email-otp/send-verification-otp`, { email, type: 'sign-in' }, origin)
    expect(sent.status).toBe(200)

    const otp = await mail.codeFor(email, seen)
    expect(otp).toMatch(/^\d{6}$/)
    const message = mail.messages.slice(seen).find((item) => item.to.includes(email))!
    expect(message.raw).toMatch(/^Subject: Your Confer sign-in code: \d{6}$/m)
    expect(message.from).toBe('no-reply@127.0.0.1')

    const signedIn = await postJson(`${server.baseUrl}/api/auth/sign-in/email-otp`, { email, otp }, origin)
    expect(signedIn.status).toBe(200)
    expect(await signedIn.json()).toMatchObject({ user: { email } })
    const setCookie = signedIn.headers.getSetCookie().find((cookie) => cookie.startsWith('service-auth.session_token='))!
    expect(setCookie).toMatch(/HttpOnly/i)
    expect(setCookie).toMatch(/SameSite=Lax/i)
    const cookie = setCookie.split(';')[0]!

    const boot = await postJson(`${server.baseUrl}/v1/account/bootstrap`, {}, { cookie, ...origin })
    expect(boot.status).toBe(200)
    const booted = await boot.json() as { workspace: { id: string } }
    expect(booted).toMatchObject({ outcome: 'created', account: { email }, membership: { accessRole: 'owner' } })

    const current = await fetch(`${server.baseUrl}/v1/account/current`, { headers: { cookie } })
    expect(current.status).toBe(200)
    expect(await current.json()).toMatchObject({ account: { email }, workspace: { id: booted.workspace.id } })

    // The web origin serves the same API under /api/v1.
    const alias = await fetch(`${server.baseUrl}/api/v1/account/current`, { headers: { cookie } })
    expect(alias.status).toBe(200)
    expect(await alias.json()).toMatchObject({ account: { email }, workspace: { id: booted.workspace.id } })

    const anonymous = await fetch(`${server.baseUrl}/api/v1/account/current`)
    expect(anonymous.status).toBe(401)
    expect(anonymous.headers.get('content-type')).toContain('application/problem+json')
  })

  it('signs in with better-auth\'s own client library', async () => {
    let cookie = ''
    const authClient = createAuthClient({
      baseURL: server.baseUrl,
      plugins: [emailOTPClient()],
      fetchOptions: {
        // In a browser the browser adds Origin; Node's fetch sends Sec-Fetch-Mode but no Origin.
        headers: { origin: server.baseUrl },
        // Node's fetch keeps no cookie jar: take the session cookie from the response ourselves.
        onResponse({ response }) {
          const session = response.headers.getSetCookie().find((item) => /session_token=/.test(item))
          if (session) cookie = session.split(';')[0]!
        },
      },
    })
    const email = uniqueEmail('client')
    const seen = mail.messages.length
    const sent = await authClient.emailOtp.sendVerificationOtp({ email, type: 'sign-in' })
    expect(sent.error).toBeNull()
    expect(sent.data).toMatchObject({ success: true })

    const otp = await mail.codeFor(email, seen)
    const signedIn = await authClient.signIn.emailOtp({ email, otp })
    expect(signedIn.error).toBeNull()
    expect(signedIn.data).toMatchObject({ user: { email } })
    expect(cookie).toMatch(/^service-auth\.session_token=.+/)

    const session = await authClient.getSession({ fetchOptions: { headers: { cookie } } })
    expect(session.error).toBeNull()
    expect(session.data).toMatchObject({ user: { email, id: signedIn.data!.user.id } })
    const withoutCookie = await authClient.getSession()
    expect(withoutCookie.data).toBeNull()

    const current = await fetch(`${server.baseUrl}/v1/account/current`, { headers: { cookie } })
    expect(current.status).toBe(200)
    expect(await current.json()).toMatchObject({ account: { email, id: signedIn.data!.user.id } })

    // A code signs in once.
    const reused = await authClient.signIn.emailOtp({ email, otp })
    expect(reused.error).toMatchObject({ status: 400 })
  })

  it('signs a native client in: no Origin and no Sec-Fetch headers', async () => {
    const email = uniqueEmail('native')
    const seen = mail.messages.length
    const sent = await nativePost(`${server.baseUrl}/api/auth/email-otp/send-verification-otp`, { email, type: 'sign-in' })
    expect(sent.status).toBe(200)
    const otp = await mail.codeFor(email, seen)
    const signedIn = await nativePost(`${server.baseUrl}/api/auth/sign-in/email-otp`, { email, otp })
    expect(signedIn.status).toBe(200)
    const cookie = signedIn.cookies.find((item) => item.startsWith('service-auth.session_token='))!.split(';')[0]!
    const boot = await nativePost(`${server.baseUrl}/v1/account/bootstrap`, {}, { cookie })
    expect(boot.status).toBe(200)
    expect(JSON.parse(boot.body)).toMatchObject({ account: { email } })
  })

  it('refuses sign-in requests from a foreign page, and browser-like requests without an Origin', async () => {
    const email = uniqueEmail('csrf')
    const foreign = await postJson(`${server.baseUrl}/api/auth/email-otp/send-verification-otp`, { email, type: 'sign-in' }, { origin: 'https://evil.example' })
    expect(foreign.status).toBe(403)
    expect(await foreign.json()).toMatchObject({ code: 'invalid_origin' })
    const noOrigin = await postJson(`${server.baseUrl}/api/auth/email-otp/send-verification-otp`, { email, type: 'sign-in' })
    expect(noOrigin.status).toBe(403)
    expect(await noOrigin.json()).toMatchObject({ code: 'missing_or_null_origin' })
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(mail.messages.some((item) => item.to.includes(email))).toBe(false)
  })
})

/** A POST through node:http, which (unlike fetch) adds no Sec-Fetch-* header: what a native app sends. */
function nativePost(url: string, body: unknown, headers: Record<string, string> = {}) {
  const payload = JSON.stringify(body)
  return new Promise<{ status: number; body: string; cookies: string[] }>((resolve, reject) => {
    const outgoing = request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), ...headers },
    }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () => resolve({
        status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), cookies: response.headers['set-cookie'] ?? [],
      }))
    })
    outgoing.on('error', reject)
    outgoing.end(payload)
  })
}
