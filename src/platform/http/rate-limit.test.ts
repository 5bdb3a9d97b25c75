import type { LightMyRequestResponse } from 'fastify'
import { beforeAll, describe, expect, it } from 'vitest'
import { eachDatabase, sessionCookie, type Harness } from '../../../test/harness.ts'

const ACCOUNT_LIMIT = 5
const PUBLIC_LIMIT = 3

/** Signs a person in through the public auth routes from `ip` (2 requests against that IP's bucket). */
async function signInFrom(h: Harness, ip: string): Promise<string> {
  const email = h.uniqueEmail('limited')
  const sent = await h.app.inject({
    method: 'POST', url: '/api/auth/email-otp/send-verification-otp', remoteAddress: ip, payload: { email, type: 'sign-in' },
  })
  expect(sent.statusCode).toBe(200)
  const otp = await h.latestCode(email)
  const signedIn = await h.app.inject({ method: 'POST', url: '/api/auth/sign-in/email-otp', remoteAddress: ip, payload: { email, otp } })
  expect(signedIn.statusCode).toBe(200)
  return sessionCookie(signedIn)
}

const getFrom = (h: Harness, ip: string, url: string, cookie?: string) =>
  h.app.inject({ method: 'GET', url, remoteAddress: ip, headers: cookie ? { cookie } : {} })

function expectRateLimited(response: LightMyRequestResponse, limit: number) {
  expect(response.statusCode).toBe(429)
  expect(response.headers['content-type']).toMatch(/^application\/problem\+json/)
  expect(response.json()).toMatchObject({ status: 429, code: 'rate_limited', type: 'urn:confer:problem:rate_limited' })
  expect(response.json().detail).toContain(String(limit))
  const retryAfter = Number(response.headers['retry-after'])
  expect(Number.isInteger(retryAfter)).toBe(true)
  expect(retryAfter).toBeGreaterThanOrEqual(1)
  expect(retryAfter).toBeLessThanOrEqual(60)
}

eachDatabase('rate limits', (h) => {
  describe('per account', () => {
    let first: string
    let second: string
    beforeAll(async () => {
      first = await signInFrom(h, '10.1.0.1')
      second = await signInFrom(h, '10.1.0.2')
    })

    it('answers the request past the account limit with 429 rate_limited and Retry-After', async () => {
      for (let count = 1; count <= ACCOUNT_LIMIT; count += 1) {
        // Spread over addresses: a signed-in account is counted as one, wherever it calls from.
        const response = await getFrom(h, `10.1.1.${count}`, '/v1/account/current', first)
        expect(response.statusCode).toBe(200)
        expect(response.headers['x-ratelimit-limit']).toBe(String(ACCOUNT_LIMIT))
      }
      expectRateLimited(await getFrom(h, '10.1.1.99', '/v1/account/current', first), ACCOUNT_LIMIT)
    })

    it('leaves other accounts alone, even on the same address', async () => {
      const response = await getFrom(h, '10.1.1.1', '/v1/account/current', second)
      expect(response.statusCode).toBe(200)
      expect(response.headers['x-ratelimit-remaining']).toBe(String(ACCOUNT_LIMIT - 1))
    })
  })

  describe('per address on public routes', () => {
    it('limits anonymous requests per client IP', async () => {
      for (let count = 1; count <= PUBLIC_LIMIT; count += 1) {
        const response = await getFrom(h, '10.2.0.1', '/v1/assets/ast_missing?token=forged')
        expect(response.statusCode).toBe(403)
        expect(response.json().code).toBe('invalid_token')
      }
      expectRateLimited(await getFrom(h, '10.2.0.1', '/v1/assets/ast_missing?token=forged'), PUBLIC_LIMIT)
    })

    it('counts the sign-in routes against the same address', async () => {
      for (let count = 1; count <= PUBLIC_LIMIT; count += 1) {
        expect((await getFrom(h, '10.2.0.2', '/api/auth/ok')).statusCode).toBe(200)
      }
      expectRateLimited(await getFrom(h, '10.2.0.2', '/api/auth/ok'), PUBLIC_LIMIT)
      const sent = await h.app.inject({
        method: 'POST', url: '/api/auth/email-otp/send-verification-otp', remoteAddress: '10.2.0.2',
        payload: { email: h.uniqueEmail(), type: 'sign-in' },
      })
      expectRateLimited(sent, PUBLIC_LIMIT)
    })

    it('leaves other addresses alone', async () => {
      const response = await getFrom(h, '10.2.0.3', '/v1/assets/ast_missing?token=forged')
      expect(response.statusCode).toBe(403)
    })
  })

  describe('exempt routes', () => {
    it('never limits /healthz', async () => {
      for (let count = 1; count <= PUBLIC_LIMIT * 3; count += 1) {
        const response = await getFrom(h, '10.3.0.1', '/healthz')
        expect(response.statusCode).toBe(200)
      }
    })
  })
}, { env: { RATE_LIMIT_ACCOUNT_PER_MINUTE: String(ACCOUNT_LIMIT), RATE_LIMIT_PUBLIC_PER_MINUTE: String(PUBLIC_LIMIT) } })
