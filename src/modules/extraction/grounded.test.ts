import { afterAll, beforeAll, expect, it } from 'vitest'
import { chatServer, type ChatRequest } from '../../../test/chat-server.ts'
import { eachDatabase } from '../../../test/harness.ts'
import { createChatClient } from '../../platform/llm/chat.ts'
import { startRecording } from '../sessions/testing.ts'
import { seedSegments } from '../transcripts/testing.ts'
import { refineWhenDue } from './jobs.ts'
import { refineSession } from './refine.ts'

const MEETING = [
  { text: 'Okay, quick sync on the release.', speakerId: 'spk_1' },
  { text: 'We decided to ship the beta to ten customers first.', speakerId: 'spk_2' },
  { text: 'Priya, can you update the pricing page by Friday?', speakerId: 'spk_1' },
  { text: 'Sure, I will do it.', speakerId: 'spk_2' },
  { text: 'Someone should also write the release notes.', speakerId: 'spk_1' },
]

const llm = chatServer()
beforeAll(() => llm.start())
afterAll(() => llm.stop())

const item = (kind: string, title: string, sourceSegmentIds: (string | undefined)[], extra: Record<string, unknown> = {}) => ({
  kind, semanticType: kind === 'action' ? 'task' : 'choice', title, summary: title, ownerName: null, dueDate: null, confidence: 0.9, sourceSegmentIds, ...extra,
})

eachDatabase('grounded-ai extraction', (h) => {
  it('proposes what the model found citing real segments, drops what cites none, and stores its clarify items and relations', async () => {
    h.app.deps.llm = createChatClient({ baseUrl: llm.url(), model: 'test-model', timeoutMs: 5000 })
    try {
      const owner = await h.member()
      const session = await startRecording(owner)
      const ids = await seedSegments(h, session, MEETING)
      llm.reply = (request: ChatRequest) => {
        expect(request.response_format.json_schema?.name).toBe('meeting_work')
        expect(request.messages[1]!.content).toContain(`[${ids[2]}]`)
        return {
          status: 200, content: JSON.stringify({
            items: [
              item('decision', 'Ship the beta to ten customers first', [ids[1]]),
              item('action', 'Update the pricing page', [ids[2], ids[3]], { ownerName: 'Priya', dueDate: '2026-11-27', semanticType: 'not-a-type' }),
              item('action', 'Write the release notes', [ids[4]]),
              item('action', 'Invented work', ['seg_invented']),
            ],
            clarifications: [
              { kind: 'missing-owner', question: 'Who writes the release notes?', itemIndexes: [2], sourceSegmentIds: [ids[4]] },
              { kind: 'missing-owner', question: 'Who does the invented work?', itemIndexes: [3], sourceSegmentIds: [ids[4]] },
            ],
            relations: [{ type: 'depends-on', fromIndex: 2, toIndex: 1, confidence: 0.7 }, { type: 'duplicate-of', fromIndex: 3, toIndex: 2, confidence: 0.9 }],
          }),
        }
      }
      await refineSession(h.app.deps, session.id)
      const refinement = (await owner.get(`/v1/sessions/${session.id}/work-refinement`)).json()
      expect(refinement).toMatchObject({ state: 'ready', engine: 'grounded-ai', itemsFound: 3 })
      const sets = (await owner.get(`/v1/conversations/${session.conversationId}/workset`)).json().workSets
      const detail = (await owner.get(`/v1/worksets/${sets[0].id}`)).json()
      const titles = detail.workObjects.map((object: { title: string }) => object.title).sort()
      expect(titles).toEqual(['Ship the beta to ten customers first', 'Update the pricing page', 'Write the release notes'])
      const pricing = detail.workObjects.find((object: { title: string }) => object.title === 'Update the pricing page')
      expect(pricing).toMatchObject({ kind: 'action', semanticType: 'task', origin: 'ai', suggestedOwnerName: 'Priya', dueDate: '2026-11-27', sourceSegmentIds: [ids[2], ids[3]], proposal: { state: 'pending' } })
      expect(detail.clarifications).toEqual([expect.objectContaining({ kind: 'missing-owner', question: 'Who writes the release notes?', status: 'open' })])
      expect(detail.relations).toEqual([expect.objectContaining({ type: 'depends-on', status: 'proposed' })])

      // Another run finds the same items again (same citations): nothing is proposed twice.
      await refineSession(h.app.deps, session.id)
      expect((await owner.get(`/v1/worksets/${sets[0].id}`)).json().workObjects).toHaveLength(3)

      // The model fails: the run falls back to extractive and says so, without proposing the same work again.
      llm.reply = () => ({ status: 500 })
      await refineSession(h.app.deps, session.id)
      const fallback = (await owner.get(`/v1/sessions/${session.id}/work-refinement`)).json()
      expect(fallback).toMatchObject({ state: 'ready', engine: 'extractive' })
      expect(fallback.lastError).toMatch(/grounded-ai failed/)
      const after = (await owner.get(`/v1/worksets/${sets[0].id}`)).json().workObjects as { title: string; sourceSegmentIds: string[]; kind: string }[]
      const pricingItems = after.filter((object) => object.kind === 'action' && object.sourceSegmentIds.includes(ids[2]!))
      expect(pricingItems).toHaveLength(1)
      // …nor asking the same question twice: the release notes still have one open clarify item.
      const clarifications = (await owner.get(`/v1/worksets/${sets[0].id}`)).json().clarifications as { kind: string; status: string; workObjectIds: string[] }[]
      const notes = detail.workObjects.find((object: { title: string }) => object.title === 'Write the release notes').id
      expect(clarifications.filter((clarification) => clarification.status === 'open' && clarification.workObjectIds.includes(notes))).toHaveLength(1)
    } finally {
      h.app.deps.llm = undefined
    }
  })

  it('asks the model at most once a minute while recording, and puts the run asked for sooner off until then', async () => {
    h.app.deps.llm = createChatClient({ baseUrl: llm.url(), model: 'test-model', timeoutMs: 5000 })
    try {
      const owner = await h.member()
      const session = await startRecording(owner)
      const ids = await seedSegments(h, session, MEETING)
      llm.reply = () => ({ status: 200, content: JSON.stringify({ items: [item('action', 'Update the pricing page', [ids[2]])], clarifications: [], relations: [] }) })
      const asked = llm.requests.length
      expect(await refineWhenDue({ sessionId: session.id }, { deps: h.app.deps })).toBe(true)
      expect(await refineWhenDue({ sessionId: session.id }, { deps: h.app.deps })).toBe(false)
      expect(llm.requests.length).toBe(asked + 1)
      const later = await h.database.db.selectFrom('jobs').select(['run_at', 'state']).where('dedupe_key', '=', `${session.id}:later`).execute()
      expect(later).toHaveLength(1)
      expect(Date.parse(later[0]!.run_at)).toBeGreaterThan(Date.now() + 50_000)
      // Once the meeting has ended there is nothing to save: the run goes ahead.
      await h.database.db.updateTable('capture_sessions').set({ state: 'processing' }).where('id', '=', session.id).execute()
      expect(await refineWhenDue({ sessionId: session.id }, { deps: h.app.deps })).toBe(true)
    } finally {
      h.app.deps.llm = undefined
    }
  })

  it('a speaker named while the engine runs: the work it writes suggests the name, not the old label', async () => {
    h.app.deps.llm = createChatClient({ baseUrl: llm.url(), model: 'test-model', timeoutMs: 5000 })
    try {
      const owner = await h.member()
      const session = await startRecording(owner)
      const ids = await seedSegments(h, session, MEETING)
      llm.reply = async () => {
        // The person names the voice while the model is still reading the transcript.
        const named = await owner.patch(`/v1/sessions/${session.id}/speakers/spk_2`, { name: 'Dana Li' })
        expect(named.statusCode, named.body).toBe(200)
        return { status: 200, content: JSON.stringify({ items: [item('action', 'Update the pricing page', [ids[2], ids[3]], { ownerName: 'Speaker 2' })], clarifications: [], relations: [] }) }
      }
      await refineSession(h.app.deps, session.id)
      const sets = (await owner.get(`/v1/conversations/${session.conversationId}/workset`)).json().workSets
      const detail = (await owner.get(`/v1/worksets/${sets[0].id}`)).json()
      expect(detail.workObjects).toEqual([expect.objectContaining({ title: 'Update the pricing page', suggestedOwnerName: 'Dana Li' })])
    } finally {
      h.app.deps.llm = undefined
    }
  })
})
