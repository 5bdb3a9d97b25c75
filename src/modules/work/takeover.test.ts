import { afterAll, beforeAll, expect, it } from 'vitest'
import { chatServer } from '../../../test/chat-server.ts'
import { eachDatabase, type Harness, type Member } from '../../../test/harness.ts'
import { createChatClient } from '../../platform/llm/chat.ts'
import { startRecording } from '../sessions/testing.ts'
import { seedSegments } from '../transcripts/testing.ts'
import { eventsOf } from './testing.ts'

const MEETING = [
  { text: 'Okay, quick sync on the release.', speakerId: 'spk_1' },
  { text: 'We decided to ship the beta to ten customers first.', speakerId: 'spk_2' },
  { text: 'Priya, can you update the pricing page by Friday?', speakerId: 'spk_1' },
  { text: 'Sure, I will do it.', speakerId: 'spk_2' },
]

const llm = chatServer()
beforeAll(() => llm.start())
afterAll(() => llm.stop())

async function meeting(h: Harness, owner: Member, segments = MEETING) {
  const session = await startRecording(owner)
  const ids = await seedSegments(h, session, segments)
  const patch = (body: Record<string, unknown>) => owner.request('PATCH', `/v1/sessions/${session.id}/workset`, { payload: body })
  const end = async () => {
    await owner.post(`/v1/sessions/${session.id}/end`)
    await h.app.deps.jobs.drain()
  }
  const detail = async () => {
    const sets = (await owner.get(`/v1/conversations/${session.conversationId}/workset`)).json().workSets
    return (await owner.get(`/v1/worksets/${sets[0].id}`)).json()
  }
  return { session, ids, patch, end, detail }
}

eachDatabase('takeover summary', (h) => {
  it('is pending while recording, derived when the meeting ends, pinned to a revision and superseded, never rewritten', async () => {
    h.app.deps.llm = undefined
    const owner = await h.member()
    const { session, ids, patch, end, detail } = await meeting(h, owner)
    await owner.post(`/v1/sessions/${session.id}/workobjects`, { kind: 'action', title: 'Book the launch room', sourceSegmentIds: [ids[0]] })
    expect((await detail()).takeoverState).toBe('pending')
    expect((await patch({ action: 'takeover.retry', idempotencyKey: 'early' })).json()).toMatchObject({ status: 409, code: 'transition_not_allowed', reason: 'meeting_in_progress' })

    await end()
    const ready = await detail()
    expect(ready.workSet.takeoverState).toBe('ready')
    expect(ready.takeoverState).toBe('ready')
    const summary = ready.takeoverSummary
    expect(summary).toMatchObject({ workSetId: ready.workSet.id, generatedBy: 'extractive' })
    expect(summary.workSetRevision).toBeLessThanOrEqual(ready.workSet.revision)
    expect(summary.headline).toMatch(/^\d+ actions?/)
    const actions = summary.blocks.find((block: { type: string }) => block.type === 'actions')
    const pricing = actions.items.find((item: { text: string }) => /pricing page/i.test(item.text))
    expect(pricing).toMatchObject({ proposed: true, stage: 'captured', sourceSegmentIds: expect.arrayContaining([ids[2]]) })
    expect(pricing.dueDate).toMatch(/^\d{4}-\d{2}-\d{2}$/)
    expect(actions.items.find((item: { text: string }) => item.text === 'Book the launch room')).toMatchObject({ stage: 'captured' })
    expect(summary.blocks.map((block: { type: string }) => block.type)).toContain('decisions')
    const events = await eventsOf(h, session.conversationId)
    expect(events.find((event) => event.type === 'workset.takeover')).toMatchObject({ channel: 'work', data: { takeoverState: 'ready', takeoverSummary: { id: summary.id } } })
    const stored = await h.database.db.selectFrom('takeover_summaries').select('content').where('id', '=', summary.id).executeTakeFirstOrThrow()

    // A person edits the work; refreshing derives a new summary at the new revision, the old one stays as it was.
    const captured = ready.workObjects.find((object: { title: string }) => object.title === 'Book the launch room')
    await owner.request('PATCH', `/v1/workobjects/${captured.id}`, { payload: { expectedRevisionHash: captured.revisionHash, content: { title: 'Book the big launch room' } } })
    const refreshed = (await patch({ action: 'takeover.refresh', idempotencyKey: 'refresh-1' })).json()
    expect(refreshed).toMatchObject({ takeoverState: 'ready', replayed: false })
    expect(refreshed.takeoverSummary.id).not.toBe(summary.id)
    expect(refreshed.takeoverSummary.workSetRevision).toBeGreaterThan(summary.workSetRevision)
    expect(JSON.stringify(refreshed.takeoverSummary.blocks)).toContain('Book the big launch room')
    expect((await detail()).takeoverSummary.id).toBe(refreshed.takeoverSummary.id)
    const old = await h.database.db.selectFrom('takeover_summaries').selectAll().where('id', '=', summary.id).executeTakeFirstOrThrow()
    expect(old).toMatchObject({ content: stored.content, superseded_by: refreshed.takeoverSummary.id })
    const again = await patch({ action: 'takeover.refresh', idempotencyKey: 'refresh-1' })
    expect(again.json()).toEqual({ ...refreshed, replayed: true })
    expect(await h.database.db.selectFrom('takeover_summaries').select('id').where('work_set_id', '=', ready.workSet.id).execute()).toHaveLength(2)
  })

  it('is omitted (empty) when the set has no real action items', async () => {
    h.app.deps.llm = undefined
    const owner = await h.member()
    const { end, detail, patch } = await meeting(h, owner)
    await end()
    const ready = await detail()
    expect(ready.takeoverState).toBe('ready')
    for (const object of ready.workObjects.filter((candidate: { kind: string }) => candidate.kind === 'action')) {
      const decided = await owner.request('PATCH', `/v1/workobjects/${object.id}/proposal`, { payload: { decision: 'reject', expectedRevisionId: object.proposal.revisionId } })
      expect(decided.statusCode).toBe(200)
    }
    const empty = await detail()
    expect(empty.takeoverState).toBe('empty')
    expect(empty.workSet.takeoverState).toBe('empty')
    expect(empty.takeoverSummary).toBeUndefined()
    expect((await patch({ action: 'takeover.refresh', idempotencyKey: 'r' })).json()).toMatchObject({ takeoverState: 'empty' })

    const quiet = await meeting(h, owner, [{ text: 'Nice weather today.', speakerId: 'spk_1' }, { text: 'Indeed it is.', speakerId: 'spk_2' }])
    await quiet.end()
    const sets = (await owner.get(`/v1/conversations/${quiet.session.conversationId}/workset`)).json().workSets
    expect(sets.every((set: { takeoverState: string }) => set.takeoverState === 'empty')).toBe(true)

    // A person captures the action the meeting lacked: the summary is derived again by itself.
    const captured = (await owner.post(`/v1/sessions/${quiet.session.id}/workobjects`, { kind: 'action', title: 'Water the plants' })).json()
    await h.app.deps.jobs.drain()
    const now = await quiet.detail()
    expect(now.takeoverState).toBe('ready')
    expect(now.takeoverSummary.blocks[0].items.map((item: { workObjectId: string }) => item.workObjectId)).toEqual([captured.id])
  })

  it('with a chat model: a failed brief is shown as failed with a retry, and the retry makes it ready', async () => {
    h.app.deps.llm = createChatClient({ baseUrl: llm.url(), model: 'test-model', timeoutMs: 5000 })
    try {
      const owner = await h.member()
      const { end, detail, patch } = await meeting(h, owner)
      // Extraction falls back to extractive when the model fails; the brief fails visibly.
      llm.reply = () => ({ status: 503 })
      await end()
      const failed = await detail()
      expect(failed.takeoverState).toBe('failed')
      expect(failed.takeoverFailure.detail).toMatch(/chat model/)
      expect(failed.takeoverSummary).toBeUndefined()

      // A model citing work objects that do not exist fails too.
      llm.reply = () => ({ status: 200, content: JSON.stringify({ headline: 'Made up.', points: [{ text: 'x', workObjectIds: ['wo_invented'] }] }) })
      const stillFailed = (await patch({ action: 'takeover.retry', idempotencyKey: 'retry-1' })).json()
      expect(stillFailed).toMatchObject({ takeoverState: 'failed', retry: { action: 'takeover.retry' } })

      const actionId = failed.workObjects.find((object: { kind: string }) => object.kind === 'action').id
      llm.reply = (request) => {
        expect(request.response_format.json_schema?.name).toBe('takeover_summary')
        expect(request.messages[1]!.content).toContain(`[${actionId}]`)
        return { status: 200, content: JSON.stringify({ headline: 'Priya owns the pricing page.', points: [{ text: 'Priya updates the pricing page by Friday.', workObjectIds: [actionId] }] }) }
      }
      const ready = (await patch({ action: 'takeover.retry', idempotencyKey: 'retry-2' })).json()
      expect(ready).toMatchObject({ takeoverState: 'ready', takeoverSummary: { generatedBy: 'grounded-ai', headline: 'Priya owns the pricing page.', brief: { points: [{ workObjectIds: [actionId] }] } } })
      expect(ready.retry).toBeUndefined()
      expect((await detail()).takeoverState).toBe('ready')
    } finally {
      h.app.deps.llm = undefined
    }
  })
})
