import { expect, it } from 'vitest'
import { eachDatabase } from '../../../test/harness.ts'
import { startRecording } from './testing.ts'

eachDatabase('session processing', (h) => {
  const states = async (conversationId: string) => (await h.app.deps.events.readAfter(conversationId, 0))
    .filter((event) => event.type === 'session.updated').map((event) => (event.data as { state: string }).state)
  const processingJob = (sessionId: string) => h.database.db.selectFrom('jobs').selectAll()
    .where('name', '=', 'sessions.process').where('dedupe_key', '=', sessionId).executeTakeFirstOrThrow()

  it('ends into processing, enqueues exactly one job with the end, and the job makes the session ready', async () => {
    const owner = await h.member()
    const session = await startRecording(owner)
    await owner.post(`/v1/sessions/${session.id}/end`)
    expect(await processingJob(session.id)).toMatchObject({ state: 'queued', payload: JSON.stringify({ sessionId: session.id }) })

    await h.app.deps.jobs.drain()
    const ready = (await owner.get(`/v1/sessions/${session.id}`)).json()
    expect(ready).toMatchObject({ state: 'ready', endedAt: expect.any(String) })
    expect(ready).not.toHaveProperty('failureReason')
    expect(await states(session.conversationId)).toEqual(['recording', 'processing', 'ready'])
    expect(await processingJob(session.id)).toMatchObject({ state: 'succeeded', attempts: 1 })

    // Running it again (a retry after a lost lease) changes nothing and emits nothing.
    const { finishProcessing } = await import('./service.ts')
    await finishProcessing(h.app.deps, h.database.db, session.id, {})
    expect(await states(session.conversationId)).toEqual(['recording', 'processing', 'ready'])
  })

  it('runs the processing in the started worker without anyone draining', async () => {
    const owner = await h.member()
    const session = await startRecording(owner)
    h.app.deps.jobs.start()
    try {
      await owner.post(`/v1/sessions/${session.id}/end`)
      for (let attempt = 0; attempt < 200; attempt += 1) {
        if ((await owner.get(`/v1/sessions/${session.id}`)).json().state === 'ready') break
        await new Promise((resolve) => setTimeout(resolve, 10))
      }
    } finally {
      await h.app.deps.jobs.stop()
    }
    expect((await owner.get(`/v1/sessions/${session.id}`)).json().state).toBe('ready')
  })

  it('marks the session failed, with a reason, when its processing job is dead-lettered', async () => {
    const owner = await h.member()
    const session = await startRecording(owner)
    await owner.post(`/v1/sessions/${session.id}/end`)
    const job = await processingJob(session.id)
    // Every worker that took the job died: its last lease ran out on the last attempt.
    await h.database.db.updateTable('jobs').set({
      state: 'running', attempts: job.max_attempts, locked_by: 'crashed-node', locked_until: new Date(Date.now() - 1000).toISOString(),
    }).where('id', '=', job.id).execute()
    await h.app.deps.jobs.drain()
    const failed = (await owner.get(`/v1/sessions/${session.id}`)).json()
    expect(failed).toMatchObject({ state: 'failed', failureReason: expect.stringContaining('Processing') })
    expect(await states(session.conversationId)).toEqual(['recording', 'processing', 'failed'])
    expect((await processingJob(session.id)).state).toBe('dead')
  })
})
