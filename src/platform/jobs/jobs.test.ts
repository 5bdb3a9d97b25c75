import { randomUUID } from 'node:crypto'
import { expect, it } from 'vitest'
import { eachDatabase, type Harness } from '../../../test/harness.ts'
import { openDatabase } from '../db/index.ts'
import { claimJobs, completeJob } from './queue.ts'
import { createJobRunner, defineJob, enqueue, type JobRunner } from './index.ts'

// What the test jobs did, by the run key in their payload.
const runs = new Map<string, number>()
const deadLetters: string[] = []
const count = (key: string) => runs.get(key) ?? 0
const record = (key: string) => runs.set(key, count(key) + 1)

defineJob<{ key: string }>({ name: 'test.record', async handler({ key }) { record(key) } })
defineJob<{ key: string; failures: number }>({
  name: 'test.flaky',
  maxAttempts: 3,
  backoff: () => 0,
  async handler({ key, failures }, { attempt }) {
    record(key)
    if (attempt <= failures) throw new Error(`failure ${attempt} of ${key}`)
  },
  async onDead({ key }, error, { executor }) {
    expect(executor.isTransaction).toBe(true)
    deadLetters.push(`${key}: ${error.split('\n')[0]}`)
  },
})
defineJob<{ key: string }>({ name: 'test.slow-retry', backoff: 60_000, async handler({ key }) { record(key); throw new Error('not yet') } })
class AskedDelay extends Error {
  readonly delayMs: number | undefined
  constructor(delayMs: number | undefined) {
    super('asked to wait')
    this.delayMs = delayMs
  }
}
defineJob<{ key: string; delayMs?: number }>({
  name: 'test.asks-delay',
  backoff: 60_000,
  retryDelay: (error) => (error instanceof AskedDelay ? error.delayMs : undefined),
  async handler({ key, delayMs }) { record(key); throw new AskedDelay(delayMs) },
})
defineJob<{ key: string; ms: number }>({
  name: 'test.sleep',
  async handler({ key, ms }) {
    await new Promise((resolve) => setTimeout(resolve, ms))
    record(key)
  },
})

const jobRow = (h: Harness, id: string) => h.database.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow()

async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs
  while (!await check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting')
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

eachDatabase('durable jobs', (h) => {
  const runner = (overrides: Partial<Parameters<typeof createJobRunner>[1]> = {}): JobRunner => createJobRunner(() => h.app.deps, {
    database: h.database, log: h.app.log, concurrency: 4, pollIntervalMs: 50, visibilityTimeoutMs: 5000, ...overrides,
  })

  it('runs an enqueued job once and records its success', async () => {
    const key = randomUUID()
    const { id, enqueued } = await enqueue(h.database.db, 'test.record', { key })
    expect(enqueued).toBe(true)
    expect(id).toMatch(/^job_[0-9A-Z]{26}$/)
    await runner().drain()
    expect(count(key)).toBe(1)
    expect(await jobRow(h, id)).toMatchObject({ state: 'succeeded', attempts: 1, finished_at: expect.any(String) })
    await runner().drain()
    expect(count(key)).toBe(1)
  })

  it('enqueues with the transaction: a rollback leaves no job', async () => {
    const key = randomUUID()
    await expect(h.database.db.transaction().execute(async (trx) => {
      await enqueue(trx, 'test.record', { key })
      throw new Error('roll back')
    })).rejects.toThrow('roll back')
    await runner().drain()
    expect(count(key)).toBe(0)
  })

  it('keeps one pending job per dedupe key', async () => {
    const key = randomUUID()
    const first = await enqueue(h.database.db, 'test.record', { key }, { dedupeKey: key })
    const second = await enqueue(h.database.db, 'test.record', { key }, { dedupeKey: key })
    expect(second).toEqual({ id: first.id, enqueued: false })
    await runner().drain()
    expect(count(key)).toBe(1)
    expect((await enqueue(h.database.db, 'test.record', { key }, { dedupeKey: key })).enqueued).toBe(true)
  })

  it('does not run a job before its runAt', async () => {
    const key = randomUUID()
    const { id } = await enqueue(h.database.db, 'test.record', { key }, { runAt: new Date(Date.now() + 60_000) })
    await runner().drain()
    expect(count(key)).toBe(0)
    await h.database.db.updateTable('jobs').set({ run_at: new Date().toISOString() }).where('id', '=', id).execute()
    await runner().drain()
    expect(count(key)).toBe(1)
  })

  it('retries a failing job and succeeds when a later attempt does', async () => {
    const key = randomUUID()
    const { id } = await enqueue(h.database.db, 'test.flaky', { key, failures: 2 })
    await runner().drain()
    expect(count(key)).toBe(3)
    expect(await jobRow(h, id)).toMatchObject({ state: 'succeeded', attempts: 3, last_error: null })
  })

  it('dead-letters a job after its last attempt, keeping the error for operators', async () => {
    const key = randomUUID()
    const { id } = await enqueue(h.database.db, 'test.flaky', { key, failures: 99 })
    await runner().drain()
    expect(count(key)).toBe(3)
    const dead = await h.database.db.selectFrom('jobs').select(['id', 'name', 'attempts', 'last_error']).where('state', '=', 'dead').execute()
    expect(dead).toContainEqual({ id, name: 'test.flaky', attempts: 3, last_error: expect.stringContaining(`failure 3 of ${key}`) })
    expect(deadLetters).toContain(`${key}: Error: failure 3 of ${key}`)
  })

  it('waits out the backoff before retrying', async () => {
    const key = randomUUID()
    const { id } = await enqueue(h.database.db, 'test.slow-retry', { key })
    const before = Date.now()
    await runner().drain()
    expect(count(key)).toBe(1)
    const row = await jobRow(h, id)
    expect(row).toMatchObject({ state: 'queued', attempts: 1, last_error: expect.stringContaining('not yet') })
    expect(new Date(row.run_at).getTime() - before).toBeGreaterThanOrEqual(0.8 * 60_000 - 100)
  })

  it('retries after the delay a failure asks for (retryDelay), else after the backoff', async () => {
    const asked = await enqueue(h.database.db, 'test.asks-delay', { key: randomUUID(), delayMs: 5000 })
    const silent = await enqueue(h.database.db, 'test.asks-delay', { key: randomUUID() })
    await runner().drain()
    const delayOf = async (id: string) => {
      const row = await jobRow(h, id)
      expect(row).toMatchObject({ state: 'queued', attempts: 1 })
      return new Date(row.run_at).getTime() - new Date(row.updated_at).getTime()
    }
    expect(await delayOf(asked.id)).toBe(5000)
    expect(await delayOf(silent.id)).toBeGreaterThanOrEqual(0.8 * 60_000)
  })

  it('claims a job again when its worker stops holding the lease, and fences the late worker out', async () => {
    const key = randomUUID()
    const { id } = await enqueue(h.database.db, 'test.record', { key })
    const [lost] = await claimJobs(h.database, 'node-that-dies', 10, 1000)
    expect(lost).toMatchObject({ id, state: 'running', attempts: 1, locked_by: 'node-that-dies' })
    await runner().drain()
    expect(count(key)).toBe(0)
    await h.database.db.updateTable('jobs').set({ locked_until: new Date(Date.now() - 1).toISOString() }).where('id', '=', id).execute()
    await runner({ nodeId: 'node-b' }).drain()
    expect(count(key)).toBe(1)
    expect(await jobRow(h, id)).toMatchObject({ state: 'succeeded', attempts: 2, locked_by: 'node-b' })
    expect(await completeJob(h.database, lost!)).toBe(false)
  })

  it('dead-letters a job whose workers keep dying, without running it again', async () => {
    const key = randomUUID()
    const { id } = await enqueue(h.database.db, 'test.flaky', { key, failures: 0 })
    await h.database.db.updateTable('jobs').set({ state: 'running', attempts: 3, locked_by: 'gone', locked_until: new Date(Date.now() - 1).toISOString() })
      .where('id', '=', id).execute()
    await runner().drain()
    expect(count(key)).toBe(0)
    expect(await jobRow(h, id)).toMatchObject({ state: 'dead', attempts: 4, last_error: expect.stringContaining('lease expired') })
  })

  it('runs jobs as they are enqueued once started, and stop() waits for the running ones', async () => {
    const worker = runner()
    worker.start()
    const key = randomUUID()
    await enqueue(h.database.db, 'test.record', { key })
    await waitUntil(() => count(key) === 1, 2000)
    const slow = randomUUID()
    const { id } = await enqueue(h.database.db, 'test.sleep', { key: slow, ms: 300 })
    await waitUntil(async () => (await jobRow(h, id)).state === 'running')
    await worker.stop()
    expect(count(slow)).toBe(1)
    expect((await jobRow(h, id)).state).toBe('succeeded')
    expect(worker.isRunning).toBe(false)
  })

  it('runs each job exactly once with two workers on their own connections', async () => {
    const second = openDatabase(h.testDatabase.target)
    const workers = [runner({ nodeId: 'node-a' }), createJobRunner(() => h.app.deps, {
      database: second, log: h.app.log, concurrency: 4, pollIntervalMs: 20, visibilityTimeoutMs: 5000, nodeId: 'node-b',
    })]
    const keys = Array.from({ length: 60 }, () => randomUUID())
    try {
      await h.database.db.transaction().execute(async (trx) => {
        for (const key of keys) await enqueue(trx, 'test.record', { key })
      })
      for (const worker of workers) worker.start()
      await waitUntil(() => keys.every((key) => count(key) > 0), 15_000)
    } finally {
      for (const worker of workers) await worker.stop()
      await second.close()
    }
    expect(keys.map(count)).toEqual(keys.map(() => 1))
    const byNode = await h.database.db.selectFrom('jobs').select(['locked_by', 'attempts']).where('payload', 'in', keys.map((key) => JSON.stringify({ key }))).execute()
    expect(byNode.every((row) => Number(row.attempts) === 1)).toBe(true)
    // Both took part: the test would prove nothing if one worker had run everything.
    expect(new Set(byNode.map((row) => row.locked_by))).toEqual(new Set(['node-a', 'node-b']))
  })

  it('refuses to enqueue a job kind nobody defined', async () => {
    await expect(enqueue(h.database.db, 'test.unknown', {})).rejects.toThrow('no job named test.unknown')
  })
})
