import { expect, it, vi } from 'vitest'
import { eachDatabase } from '../../../test/harness.ts'
import { buildApp } from '../../app.ts'
import { inviteAndJoin } from '../../modules/workspace/testing.ts'
import { ACTOR_CACHE_TTL_MS } from './actor.ts'

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

  it('revoking an account\'s sessions stops its other signed-in session at once', async () => {
    const email = h.uniqueEmail()
    const laptop = await h.signIn(email)
    const phone = await h.signIn(email)
    expect((await phone.get('/v1/account/current')).statusCode).toBe(200)
    const revoked = await laptop.post('/api/auth/revoke-sessions', {}, { origin: 'http://localhost:8080' })
    expect(revoked.statusCode, revoked.body).toBe(200)
    expect((await phone.get('/v1/account/current')).statusCode).toBe(401)
    expect((await laptop.get('/v1/account/current')).statusCode).toBe(401)
  })

  it('a removed member loses the workspace on the next request', async () => {
    const owner = await h.member()
    const member = await inviteAndJoin(h, owner)
    expect((await member.get('/v1/workspace/members')).statusCode).toBe(200)
    expect((await owner.delete(`/v1/workspace/members/${member.accountId}`)).statusCode).toBe(200)
    const refused = await member.get('/v1/workspace/members')
    expect(refused.statusCode).toBe(403)
    expect(refused.json().code).toBe('no_workspace')
  })

  it('another process applies a changed permission within ACTOR_CACHE_TTL_MS', async () => {
    const owner = await h.member()
    const member = await inviteAndJoin(h, owner)
    // A second app on the same database stands for another process of the deployment.
    const other = await buildApp(h.config, { database: h.database, migrate: false })
    const createProject = (name: string) => other.inject({ method: 'POST', url: '/v1/projects', headers: { cookie: member.cookie! }, payload: { name } })
    try {
      expect((await createProject('Before')).statusCode).toBe(200)
      vi.useFakeTimers({ toFake: ['Date'] })
      expect((await owner.patch(`/v1/workspace/members/${member.accountId}`, { contentPermission: 'view' })).statusCode).toBe(200)
      vi.setSystemTime(Date.now() + ACTOR_CACHE_TTL_MS + 1)
      const refused = await createProject('After')
      expect(refused.statusCode).toBe(403)
      expect(refused.json().code).toBe('forbidden')
    } finally {
      vi.useRealTimers()
      await other.close()
    }
  })
})
