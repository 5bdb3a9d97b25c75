// Email one-time codes (interface §5.2, §8): 6 digits, stored hashed, valid 10 minutes, at most 5
// per mailbox per hour, burnt after 5 wrong tries. The clock is faked for Date only, so better-auth
// and the send counter see the moved time while timers (and the database drivers) run normally.
import { sql } from 'kysely'
import { afterEach, expect, it, vi } from 'vitest'
import { eachDatabase, type Harness } from '../../../test/harness.ts'

const MINUTE = 60_000

eachDatabase('email one-time codes', (h) => {
  const signIn = (email: string, otp: string) =>
    h.app.inject({ method: 'POST', url: '/api/auth/sign-in/email-otp', payload: { email, otp } })

  afterEach(() => {
    vi.useRealTimers()
  })

  it('mails exactly 6 digits and stores only a hash of them', async () => {
    const email = h.uniqueEmail()
    const sent = await h.sendCode(email)
    expect(sent.statusCode).toBe(200)
    const code = await h.latestCode(email)
    expect(code).toMatch(/^\d{6}$/)

    const mail = await h.database.db.selectFrom('mail_outbox').select(['subject', 'body_text'])
      .where('to_address', '=', email).executeTakeFirstOrThrow()
    expect(mail.body_text).toMatch(new RegExp(`code is ${code}\\.`))
    expect(mail.subject).toContain(code)

    const stored = await storedCodes(h, email)
    expect(stored).toHaveLength(1)
    expect(stored[0]).not.toContain(code)
    expect(stored[0]!.length).toBeGreaterThan(code.length + 10)
  })

  it('accepts a code 9:59 after it was sent', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const start = Date.now()
    const email = h.uniqueEmail()
    expect((await h.sendCode(email)).statusCode).toBe(200)
    const code = await h.latestCode(email)

    vi.setSystemTime(start + 10 * MINUTE - 1000)
    const response = await signIn(email, code)
    expect(response.statusCode).toBe(200)
    expect(response.json()).toMatchObject({ user: { email } })
  })

  it('refuses a code 10:01 after it was sent with OTP_EXPIRED', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const start = Date.now()
    const email = h.uniqueEmail()
    expect((await h.sendCode(email)).statusCode).toBe(200)
    const code = await h.latestCode(email)

    vi.setSystemTime(start + 10 * MINUTE + 1000)
    const response = await signIn(email, code)
    expect(response.statusCode).toBe(400)
    expect(response.json()).toMatchObject({ code: 'otp_expired' })
    expect(response.headers['set-cookie']).toBeUndefined()
  })

  it('refuses the 6th send within an hour with 429 and Retry-After, and sends again an hour later', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const start = Date.now()
    const email = h.uniqueEmail()
    for (let send = 0; send < 5; send += 1) {
      vi.setSystemTime(start + send * MINUTE)
      expect((await h.sendCode(email)).statusCode).toBe(200)
    }
    vi.setSystemTime(start + 30 * MINUTE)
    const refused = await h.sendCode(email)
    expect(refused.statusCode).toBe(429)
    // The oldest send leaves the window 30 minutes from now.
    expect(Number(refused.headers['retry-after'])).toBe(30 * 60)
    expect(refused.json()).toMatchObject({ code: 'otp_send_limit' })

    // The limit is per mailbox: another one is not affected.
    expect((await h.sendCode(h.uniqueEmail())).statusCode).toBe(200)
    // Mixed case is the same mailbox.
    expect((await h.sendCode(email.toUpperCase())).statusCode).toBe(429)

    vi.setSystemTime(start + 60 * MINUTE + 1000)
    // Mail goes out after the response: clear the earlier codes so latestCode waits for the new one.
    await h.database.db.deleteFrom('mail_outbox').where('to_address', '=', email).execute()
    const again = await h.sendCode(email)
    expect(again.statusCode).toBe(200)
    const code = await h.latestCode(email)
    expect((await signIn(email, code)).statusCode).toBe(200)
  })

  it('lets exactly 5 of 8 concurrent sends to one mailbox through', async () => {
    const email = h.uniqueEmail()
    const responses = await Promise.all(Array.from({ length: 8 }, () => h.sendCode(email)))
    const statuses = responses.map((response) => response.statusCode).sort()
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429])
    for (const refused of responses.filter((response) => response.statusCode === 429)) {
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
    }
    const counted = await h.database.db.selectFrom('otp_sends').select('id').where('email', '=', email).execute()
    expect(counted).toHaveLength(5)
  })

  it('burns the code after 5 wrong tries: the 6th attempt fails even with the right code', async () => {
    const email = h.uniqueEmail()
    expect((await h.sendCode(email)).statusCode).toBe(200)
    const code = await h.latestCode(email)
    const wrong = code === '000000' ? '111111' : '000000'
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const response = await signIn(email, wrong)
      expect(response.statusCode).toBe(400)
      expect(response.json()).toMatchObject({ code: 'invalid_otp' })
    }
    const sixth = await signIn(email, code)
    expect(sixth.statusCode).toBe(403)
    expect(sixth.json()).toMatchObject({ code: 'too_many_attempts' })
    expect(sixth.headers['set-cookie']).toBeUndefined()
    // Burnt for good: the right code does not work afterwards either.
    expect((await signIn(email, code)).statusCode).not.toBe(200)
  })

  it('accepts the right code after 4 wrong tries', async () => {
    const email = h.uniqueEmail()
    expect((await h.sendCode(email)).statusCode).toBe(200)
    const code = await h.latestCode(email)
    const wrong = code === '000000' ? '111111' : '000000'
    for (let attempt = 0; attempt < 4; attempt += 1) expect((await signIn(email, wrong)).statusCode).toBe(400)
    expect((await signIn(email, code)).statusCode).toBe(200)
  })
})

async function storedCodes(h: Harness, email: string): Promise<string[]> {
  // better-auth owns this table, so it is not in our Kysely types.
  const { rows } = await sql<{ value: string }>`select value from auth_verification where identifier like ${`%${email}%`}`
    .execute(h.database.db)
  return rows.map((row) => row.value)
}
