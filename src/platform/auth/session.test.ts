import { expect, it, vi } from 'vitest'
import { eachDatabase } from '../../../test/harness.ts'

const DAY = 86_400_000

eachDatabase('session cookie resolution', (h) => {
  it('refuses a cookie whose signature is not ours, and an unknown token', async () => {
    const person = await h.member()
    const [name, value] = person.cookie!.split('=') as [string, string]
    const decoded = decodeURIComponent(value)
    const token = decoded.slice(0, decoded.lastIndexOf('.'))
    const forged = `${name}=${encodeURIComponent(`${token}.${'A'.repeat(43)}=`)}`
    expect((await h.anonymous.get('/v1/account/current', { cookie: forged })).statusCode).toBe(401)
    expect((await h.anonymous.get('/v1/account/current', { cookie: `${name}=garbage` })).statusCode).toBe(401)
    expect((await h.anonymous.get('/v1/account/current', { cookie: person.cookie! })).statusCode).toBe(200)
  })

  it('extends a session used after a day, and refuses one past its expiry', async () => {
    const person = await h.member()
    const read = () => h.database.db.selectFrom('auth_session').select(['expiresAt'])
      .innerJoin('auth_user', 'auth_user.id', 'auth_session.userId').where('auth_user.email', '=', person.email).executeTakeFirstOrThrow()
    const before = new Date((await read()).expiresAt as string).getTime()
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      vi.setSystemTime(Date.now() + DAY + 60_000)
      const used = await person.get('/v1/account/current')
      expect(used.statusCode).toBe(200)
      expect(String(used.headers['set-cookie'])).toContain('service-auth.session_token=')
      const after = new Date((await read()).expiresAt as string).getTime()
      expect(after).toBeGreaterThan(before + DAY - 5_000)

      vi.setSystemTime(after + 1_000)
      expect((await person.get('/v1/account/current')).statusCode).toBe(401)
    } finally {
      vi.useRealTimers()
    }
  })

  it('signs out: the cookie stops working', async () => {
    const person = await h.member()
    const out = await person.post('/api/auth/sign-out', {}, { origin: 'http://localhost:8080' })
    expect(out.statusCode).toBe(200)
    expect((await person.get('/v1/account/current')).statusCode).toBe(401)
  })
})
