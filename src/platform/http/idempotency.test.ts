import { randomUUID } from 'node:crypto'
import type { LightMyRequestResponse } from 'fastify'
import { Type } from 'typebox'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { App } from '../../app.ts'
import { eachDatabase, type Member } from '../../../test/harness.ts'

type ScratchTables = { test_idempotency_records: { id: string; account_id: string; title: string } }
const RecordBody = Type.Object({ title: Type.String({ minLength: 1 }) }, { additionalProperties: false })

function deferred() {
  let resolve: () => void = () => {}
  const promise = new Promise<void>((done) => {
    resolve = done
  })
  return { promise, resolve }
}

// Controls for the test-only routes below.
let slowEntered = deferred()
let slowRelease = deferred()
let failNext = false

async function registerScratchRoutes(app: App) {
  const db = app.deps.database.db.withTables<ScratchTables>()
  await db.schema.createTable('test_idempotency_records').ifNotExists()
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .execute()
  const insertRecord = async (accountId: string, title: string) => {
    const row = { id: randomUUID(), account_id: accountId, title }
    await db.insertInto('test_idempotency_records').values(row).execute()
    return { id: row.id, title }
  }
  const options = { config: { idempotent: true, access: 'edit' as const }, schema: { hide: true, body: RecordBody } }
  app.post('/v1/test-idempotency/records', options, async (request) =>
    insertRecord(request.actor!.accountId, (request.body as { title: string }).title))
  app.post('/v1/test-idempotency/slow', options, async (request) => {
    slowEntered.resolve()
    await slowRelease.promise
    return insertRecord(request.actor!.accountId, (request.body as { title: string }).title)
  })
  app.post('/v1/test-idempotency/flaky', options, async (request) => {
    if (failNext) {
      failNext = false
      throw new Error('the database went away')
    }
    return insertRecord(request.actor!.accountId, (request.body as { title: string }).title)
  })
}

eachDatabase('Idempotency-Key', (h) => {
  let member: Member
  let other: Member
  beforeAll(async () => {
    member = await h.member()
    other = await h.member()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  const rowsTitled = async (title: string) =>
    h.database.db.withTables<ScratchTables>().selectFrom('test_idempotency_records').selectAll().where('title', '=', title).execute()
  const post = (who: Member, path: string, title: string, key?: string) =>
    who.post(`/v1/test-idempotency/${path}`, { title }, key === undefined ? {} : { 'idempotency-key': key })
  const isReplayed = (response: LightMyRequestResponse) => response.headers['idempotent-replayed'] === 'true'

  it('runs every request without a key', async () => {
    const title = `plain-${randomUUID()}`
    expect((await post(member, 'records', title)).statusCode).toBe(200)
    expect((await post(member, 'records', title)).statusCode).toBe(200)
    expect(await rowsTitled(title)).toHaveLength(2)
  })

  it('replays the stored response for the same key and body, without running again', async () => {
    const title = `replay-${randomUUID()}`
    const key = randomUUID()
    const first = await post(member, 'records', title, key)
    expect(first.statusCode).toBe(200)
    expect(isReplayed(first)).toBe(false)
    const second = await post(member, 'records', title, key)
    expect(second.statusCode).toBe(200)
    expect(second.headers['idempotent-replayed']).toBe('true')
    expect(second.headers['content-type']).toMatch(/^application\/json/)
    expect(second.json()).toEqual(first.json())
    expect(await rowsTitled(title)).toHaveLength(1)
  })

  it('refuses the same key with another body with 422 idempotency_key_reused', async () => {
    const key = randomUUID()
    const title = `first-${randomUUID()}`
    expect((await post(member, 'records', title, key)).statusCode).toBe(200)
    const reused = await post(member, 'records', `other-${randomUUID()}`, key)
    expect(reused.statusCode).toBe(422)
    expect(reused.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(reused.json()).toMatchObject({ status: 422, code: 'idempotency_key_reused' })
  })

  it('answers 409 idempotency_in_flight while the first request with the key is running', async () => {
    slowEntered = deferred()
    slowRelease = deferred()
    const key = randomUUID()
    const title = `slow-${randomUUID()}`
    const first = post(member, 'slow', title, key)
    await slowEntered.promise
    const duplicate = await post(member, 'slow', title, key)
    expect(duplicate.statusCode).toBe(409)
    expect(duplicate.json()).toMatchObject({ status: 409, code: 'idempotency_in_flight' })
    expect(Number(duplicate.headers['retry-after'])).toBeGreaterThanOrEqual(1)
    slowRelease.resolve()
    const completed = await first
    expect(completed.statusCode).toBe(200)
    const replay = await post(member, 'slow', title, key)
    expect(isReplayed(replay)).toBe(true)
    expect(replay.json()).toEqual(completed.json())
    expect(await rowsTitled(title)).toHaveLength(1)
  })

  it('runs 10 concurrent duplicates exactly once', async () => {
    const key = randomUUID()
    const title = `burst-${randomUUID()}`
    const answers = await Promise.all(Array.from({ length: 10 }, () => post(member, 'records', title, key)))
    const rows = await rowsTitled(title)
    expect(rows).toHaveLength(1)
    const fresh = answers.filter((answer) => answer.statusCode === 200 && !isReplayed(answer))
    expect(fresh).toHaveLength(1)
    for (const answer of answers) {
      if (answer.statusCode === 409) {
        expect(answer.json().code).toBe('idempotency_in_flight')
        continue
      }
      expect(answer.statusCode).toBe(200)
      expect(answer.json()).toEqual({ id: rows[0]!.id, title })
    }
  })

  it('does not store a 500: a retry with the same key runs again', async () => {
    const key = randomUUID()
    const title = `flaky-${randomUUID()}`
    failNext = true
    const failed = await post(member, 'flaky', title, key)
    expect(failed.statusCode).toBe(500)
    expect(failed.json().code).toBe('internal_error')
    const retried = await post(member, 'flaky', title, key)
    expect(retried.statusCode).toBe(200)
    expect(isReplayed(retried)).toBe(false)
    expect(await rowsTitled(title)).toHaveLength(1)
  })

  it('scopes keys per account and per route', async () => {
    const key = randomUUID()
    const title = `scoped-${randomUUID()}`
    const mine = await post(member, 'records', title, key)
    const theirs = await post(other, 'records', title, key)
    expect(theirs.statusCode).toBe(200)
    expect(isReplayed(theirs)).toBe(false)
    expect(theirs.json().id).not.toBe(mine.json().id)
    const otherRoute = await post(member, 'flaky', title, key)
    expect(otherRoute.statusCode).toBe(200)
    expect(isReplayed(otherRoute)).toBe(false)
    expect(await rowsTitled(title)).toHaveLength(3)
  })

  it('refuses a key longer than 255 characters with 400', async () => {
    const title = `long-${randomUUID()}`
    const response = await post(member, 'records', title, 'k'.repeat(256))
    expect(response.statusCode).toBe(400)
    expect(response.json()).toMatchObject({ code: 'validation_failed', errors: [expect.objectContaining({ field: 'Idempotency-Key' })] })
    expect(await rowsTitled(title)).toHaveLength(0)
    expect((await post(member, 'records', title, 'k'.repeat(255))).statusCode).toBe(200)
  })

  it('runs a request again once its key is older than 24 hours', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const key = randomUUID()
    const title = `expiry-${randomUUID()}`
    const first = await post(member, 'records', title, key)
    expect(first.statusCode).toBe(200)
    vi.setSystemTime(Date.now() + 23 * 3_600_000)
    expect(isReplayed(await post(member, 'records', title, key))).toBe(true)
    vi.setSystemTime(Date.now() + 2 * 3_600_000)
    const later = await post(member, 'records', title, key)
    expect(later.statusCode).toBe(200)
    expect(isReplayed(later)).toBe(false)
    expect(later.json().id).not.toBe(first.json().id)
    expect(await rowsTitled(title)).toHaveLength(2)
  })

  describe('on routes that do not declare it', () => {
    it('ignores the header', async () => {
      const key = randomUUID()
      const first = await member.patch('/v1/account/profile', { name: 'Ada' }, { 'idempotency-key': key })
      const second = await member.patch('/v1/account/profile', { name: 'Ada' }, { 'idempotency-key': key })
      expect(first.statusCode).toBe(200)
      expect(second.statusCode).toBe(200)
      expect(second.headers['idempotent-replayed']).toBeUndefined()
    })
  })
}, { setup: registerScratchRoutes })
