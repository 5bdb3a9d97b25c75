// Work objects through HTTP: capture, read, the work set, content revisions and their guard.
import canonicalize from 'canonicalize'
import { beforeAll, describe, expect, it } from 'vitest'
import { eachDatabase, type Member } from '../../../test/harness.ts'
import { sha256Hex } from '../../platform/ids.ts'
import { startRecording } from '../sessions/testing.ts'
import { seedSegments } from '../transcripts/testing.ts'
import { inviteAndJoin } from '../workspace/testing.ts'
import { capture, eventsOf } from './testing.ts'

eachDatabase('work objects', (h) => {
  let owner: Member
  let editor: Member
  let viewer: Member
  let stranger: Member
  let session: { id: string; conversationId: string }

  beforeAll(async () => {
    owner = await h.member()
    editor = await inviteAndJoin(h, owner, { contentPermission: 'edit' })
    viewer = await inviteAndJoin(h, owner, { contentPermission: 'view' })
    stranger = await h.member()
    session = await startRecording(owner)
  })

  describe('capture', () => {
    it('derives family and semanticType from kind, cites segments of the session and opens the work set', async () => {
      const segments = await seedSegments(h, session, [{ text: 'We ship the beta on Friday.' }, { text: 'Anna owns it.' }])
      const object = await capture(editor, session.id, {
        kind: 'action', title: '  Ship the beta ', summary: 'By Friday', sourceSegmentIds: segments, nextStep: 'organize',
      })
      expect(object).toMatchObject({
        kind: 'action', family: 'commitment', semanticType: 'task', title: 'Ship the beta', summary: 'By Friday', nextStep: 'organize',
        destination: 'inbox', sourceSegmentIds: segments, stage: 'captured', origin: 'person', revisionNumber: 1,
        responsibility: { state: 'todo' }, createdById: editor.accountId, sessionId: session.id, conversationId: session.conversationId,
      })
      expect(object.ownerId).toBeUndefined()
      expect(object.revisionHash).toBe(sha256Hex(canonicalize({ title: 'Ship the beta', summary: 'By Friday' })!))
      const detail = (await viewer.get(`/v1/worksets/${object.workSetId}`)).json()
      expect(detail.workSet).toMatchObject({ id: object.workSetId, sessionId: session.id, takeoverState: 'pending', needsRebuild: false })
      expect(detail.workObjects.map((o: { id: string }) => o.id)).toContain(object.id)
      expect(detail.revisions).toEqual(expect.arrayContaining([expect.objectContaining({ id: object.revisionId, workObjectId: object.id })]))
      expect(detail.reviewTasks).toEqual(expect.arrayContaining([expect.objectContaining({ id: object.reviewId, state: 'open' })]))
      expect(detail).toMatchObject({ actions: [], executions: [], needsRebuild: false })
      expect((await viewer.get(`/v1/workobjects/${object.id}`)).json()).toEqual(object)
      const sets = (await viewer.get(`/v1/conversations/${session.conversationId}/workset`)).json()
      expect(sets.workSets.map((set: { id: string }) => set.id)).toEqual([object.workSetId])
    })

    it('keeps one work set per session and bumps its revision on every change, with events on the work channel', async () => {
      const first = await capture(owner, session.id, { kind: 'decision' })
      const before = (await owner.get(`/v1/worksets/${first.workSetId}`)).json().workSet.revision
      const seq = (await eventsOf(h, session.conversationId)).at(-1)!.seq
      const second = await capture(owner, session.id, { kind: 'question', semanticType: 'risk' })
      expect(second).toMatchObject({ workSetId: first.workSetId, family: 'inquiry', semanticType: 'risk' })
      expect((await owner.get(`/v1/worksets/${first.workSetId}`)).json().workSet.revision).toBe(before + 1)
      const events = await eventsOf(h, session.conversationId, seq)
      expect(events.map((event) => event.type)).toEqual(['workobject.created', 'workset.updated'])
      expect(events.every((event) => event.channel === 'work')).toBe(true)
      expect(events[0]!.data.workObject.id).toBe(second.id)
      expect(events[1]!.data).toEqual({ workSetId: first.workSetId, revision: before + 1 })
    })

    it('gives every kind its family and default semantic type', async () => {
      const expected = {
        action: ['commitment', 'task'], decision: ['decision', 'choice'], question: ['inquiry', 'open-question'],
        outcome: ['result', 'outcome'], reference: ['artifact', 'link'],
      }
      for (const [kind, [family, semanticType]] of Object.entries(expected)) {
        expect(await capture(owner, session.id, { kind, title: undefined })).toMatchObject({ kind, family, semanticType, title: `New ${kind}` })
      }
    })

    it('refuses bad input with 400 naming the field', async () => {
      const other = await startRecording(editor)
      const [foreignSegment] = await seedSegments(h, other, [{ text: 'elsewhere' }])
      const cases: [Record<string, unknown>, string][] = [
        [{ title: 'no kind' }, 'kind'],
        [{ kind: 'task' }, 'kind'],
        [{ kind: 'action', family: 'decision' }, 'family'],
        [{ kind: 'action', semanticType: 'policy' }, 'semanticType'],
        [{ kind: 'action', title: '   ' }, 'title'],
        [{ kind: 'action', nextStep: 'deploy' }, 'nextStep'],
        [{ kind: 'action', sourceSegmentIds: [foreignSegment] }, 'sourceSegmentIds'],
        [{ kind: 'action', sourceSegmentIds: ['seg_nope'] }, 'sourceSegmentIds'],
        [{ kind: 'action', targetProjectId: 'prj_nope' }, 'targetProjectId'],
      ]
      for (const [body, field] of cases) {
        const response = await owner.post(`/v1/sessions/${session.id}/workobjects`, body)
        expect(response.statusCode, JSON.stringify(body)).toBe(400)
        expect(response.json().code).toBe('validation_failed')
        expect(response.json().errors.map((error: { field: string }) => error.field).join(), JSON.stringify(body)).toContain(field)
      }
    })

    it('files into a project of the workspace', async () => {
      const project = (await owner.post('/v1/projects', { name: 'Beta' })).json()
      expect(await capture(owner, session.id, { targetProjectId: project.id })).toMatchObject({ destination: 'project', targetProjectId: project.id })
      const foreign = (await stranger.post('/v1/projects', { name: 'Theirs' })).json()
      expect((await owner.post(`/v1/sessions/${session.id}/workobjects`, { kind: 'action', targetProjectId: foreign.id })).statusCode).toBe(400)
    })

    it('answers 403 to a view member, 404 across workspaces and 401 anonymously', async () => {
      const object = await capture(owner, session.id)
      expect((await viewer.post(`/v1/sessions/${session.id}/workobjects`, { kind: 'action' })).json().code).toBe('forbidden')
      expect((await stranger.post(`/v1/sessions/${session.id}/workobjects`, { kind: 'action' })).statusCode).toBe(404)
      expect((await stranger.get(`/v1/workobjects/${object.id}`)).statusCode).toBe(404)
      expect((await stranger.get(`/v1/worksets/${object.workSetId}`)).statusCode).toBe(404)
      expect((await stranger.get(`/v1/conversations/${session.conversationId}/workset`)).statusCode).toBe(404)
      expect((await h.anonymous.get(`/v1/workobjects/${object.id}`)).statusCode).toBe(401)
    })
  })

  describe('the work set read', () => {
    it('carries a strong ETag: If-None-Match answers 304 while the set is unchanged, 200 with the new detail once it changes', async () => {
      const other = await startRecording(owner)
      const object = await capture(owner, other.id, { title: 'Poll me' })
      const first = await viewer.get(`/v1/worksets/${object.workSetId}`)
      expect(first.statusCode).toBe(200)
      const etag = first.headers.etag as string
      expect(etag).toMatch(/^"[\w-]+"$/)
      expect(first.headers['cache-control']).toBe('private, no-cache')
      expect((await owner.get(`/v1/worksets/${object.workSetId}`)).headers.etag).toBe(etag)

      const unchanged = await viewer.get(`/v1/worksets/${object.workSetId}`, { 'if-none-match': etag })
      expect(unchanged.statusCode).toBe(304)
      expect(unchanged.body).toBe('')
      expect(unchanged.headers.etag).toBe(etag)
      expect((await viewer.get(`/v1/worksets/${object.workSetId}`, { 'if-none-match': `"other", ${etag}` })).statusCode).toBe(304)
      expect((await viewer.get(`/v1/worksets/${object.workSetId}`, { 'if-none-match': '"other"' })).statusCode).toBe(200)

      const edited = await editor.patch(`/v1/workobjects/${object.id}`, { expectedRevisionHash: object.revisionHash, content: { title: 'Polled' } })
      expect(edited.statusCode, edited.body).toBe(200)
      const changed = await viewer.get(`/v1/worksets/${object.workSetId}`, { 'if-none-match': etag })
      expect(changed.statusCode).toBe(200)
      expect(changed.headers.etag).not.toBe(etag)
      expect(changed.json().workObjects.find((o: { id: string }) => o.id === object.id).title).toBe('Polled')
      expect(changed.json().workSet.revision).toBe(first.json().workSet.revision + 1)
    })

    it('checks access before the ETag: 404 across workspaces, 401 anonymously', async () => {
      const object = await capture(owner, session.id)
      const { etag } = (await owner.get(`/v1/worksets/${object.workSetId}`)).headers as { etag: string }
      expect((await stranger.get(`/v1/worksets/${object.workSetId}`, { 'if-none-match': etag })).statusCode).toBe(404)
      expect((await h.anonymous.get(`/v1/worksets/${object.workSetId}`, { 'if-none-match': etag })).statusCode).toBe(401)
    })
  })

  describe('content revisions', () => {
    it('writes a new revision per content change and answers 409 with the current revision to a stale hash', async () => {
      const object = await capture(owner, session.id, { title: 'Draft', summary: 'v1' })
      const edited = await editor.patch(`/v1/workobjects/${object.id}`, { expectedRevisionHash: object.revisionHash, content: { title: 'Draft 2', summary: 'v2' } })
      expect(edited.statusCode, edited.body).toBe(200)
      const v2 = edited.json()
      expect(v2).toMatchObject({ title: 'Draft 2', summary: 'v2', revisionNumber: 2 })
      expect(v2.revisionId).not.toBe(object.revisionId)
      expect(v2.revisionHash).toBe(sha256Hex(canonicalize({ summary: 'v2', title: 'Draft 2' })!))
      const stale = await owner.patch(`/v1/workobjects/${object.id}`, { expectedRevisionHash: object.revisionHash, content: { title: 'Lost' } })
      expect(stale.statusCode).toBe(409)
      expect(stale.json()).toMatchObject({ code: 'stale_revision', currentRevisionId: v2.revisionId, currentRevisionHash: v2.revisionHash })
      // The same content again is no new revision; a null summary removes it.
      const same = (await owner.patch(`/v1/workobjects/${object.id}`, { expectedRevisionHash: v2.revisionHash, content: { title: ' Draft 2', summary: 'v2 ' } })).json()
      expect(same.revisionId).toBe(v2.revisionId)
      const cleared = (await owner.patch(`/v1/workobjects/${object.id}`, { expectedRevisionHash: v2.revisionHash, content: { title: 'Draft 2', summary: null } })).json()
      expect(cleared.summary).toBeUndefined()
      const revisions = (await viewer.get(`/v1/workobjects/${object.id}/revisions`)).json()
      expect(revisions.workObjectId).toBe(object.id)
      expect(revisions.revisions.map((revision: { number: number; content: { title: string } }) => [revision.number, revision.content.title]))
        .toEqual([[1, 'Draft'], [2, 'Draft 2'], [3, 'Draft 2']])
      const activity = (await viewer.get(`/v1/workobjects/${object.id}/activity`)).json()
      expect(activity.map((entry: { verb: string; field?: string }) => `${entry.verb}:${entry.field ?? ''}`))
        .toEqual(['created:', 'edited:title', 'edited:summary', 'edited:summary'])
    })

    it('sets, keeps and clears the due date beside the content; a date alone makes no revision', async () => {
      const object = await capture(owner, session.id, { title: 'Send the report' })
      const patch = (body: object) => editor.patch(`/v1/workobjects/${object.id}`, { expectedRevisionHash: object.revisionHash, content: { title: 'Send the report' }, ...body })
      const dated = await patch({ dueDate: '2026-12-04' })
      expect(dated.statusCode, dated.body).toBe(200)
      expect(dated.json()).toMatchObject({ dueDate: '2026-12-04', revisionId: object.revisionId, revisionNumber: 1 })
      expect((await owner.get(`/v1/workobjects/${object.id}`)).json().dueDate).toBe('2026-12-04')
      expect((await patch({})).json().dueDate).toBe('2026-12-04')
      const cleared = await patch({ dueDate: null })
      expect(cleared.json().dueDate).toBeUndefined()
      const bad = await patch({ dueDate: 'next Friday' })
      expect([bad.statusCode, bad.json().code, bad.json().errors?.[0]?.field]).toEqual([400, 'validation_failed', 'dueDate'])
      // Not a calendar date: year 0000, the 30th of February.
      for (const dueDate of ['0000-03-01', '2027-02-30', '1899-12-31']) {
        const wrong = await patch({ dueDate })
        expect([wrong.statusCode, wrong.json().code, wrong.json().errors?.[0]?.field], dueDate).toEqual([400, 'validation_failed', 'dueDate'])
      }
      expect((await patch({ dueDate: '2028-02-29' })).json().dueDate).toBe('2028-02-29')
      expect((await viewer.patch(`/v1/workobjects/${object.id}`, { expectedRevisionHash: object.revisionHash, content: { title: 'x' }, dueDate: '2026-12-05' })).statusCode).toBe(403)
      const activity = (await viewer.get(`/v1/workobjects/${object.id}/activity`)).json()
      expect(activity.filter((entry: { field?: string }) => entry.field === 'dueDate').map((entry: { oldValue?: string; newValue?: string }) => [entry.oldValue ?? null, entry.newValue ?? null]))
        .toEqual([[null, '2026-12-04'], ['2026-12-04', null], [null, '2028-02-29']])
    })

    it('sets, keeps and clears the next step beside the content under the same revision guard', async () => {
      const object = await capture(owner, session.id, { title: 'Draft the moodboard', nextStep: 'organize' })
      expect(object.nextStep).toBe('organize')
      const url = `/v1/workobjects/${object.id}`
      const patch = (body: object) => editor.patch(url, { expectedRevisionHash: object.revisionHash, content: { title: 'Draft the moodboard' }, ...body })
      const moved = await patch({ nextStep: 'moodboard' })
      expect(moved.statusCode, moved.body).toBe(200)
      // Only the next step changed: no new revision, the hash stays.
      expect(moved.json()).toMatchObject({ nextStep: 'moodboard', revisionId: object.revisionId, revisionHash: object.revisionHash, revisionNumber: 1 })
      expect((await owner.get(url)).json().nextStep).toBe('moodboard')
      expect((await patch({})).json().nextStep).toBe('moodboard')
      // Inside content too, with a title change (a new revision).
      const both = await patch({ content: { title: 'Draft the moodboard today', nextStep: 'visual-proposal' } })
      expect(both.json()).toMatchObject({ nextStep: 'visual-proposal', title: 'Draft the moodboard today', revisionNumber: 2 })
      // The revision guard: the old hash is stale now, and nothing changes.
      const stale = await patch({ nextStep: 'runner-a' })
      expect([stale.statusCode, stale.json().code]).toEqual([409, 'stale_revision'])
      expect((await owner.get(url)).json().nextStep).toBe('visual-proposal')
      const current = { expectedRevisionHash: both.json().revisionHash, content: { title: 'Draft the moodboard today' } }
      const cleared = await editor.patch(url, { ...current, nextStep: null })
      expect(cleared.statusCode, cleared.body).toBe(200)
      expect(cleared.json().nextStep).toBeUndefined()
      for (const body of [{ ...current, nextStep: 'ship-it' }, { ...current, content: { ...current.content, nextStep: 7 } }]) {
        const bad = await editor.patch(url, body)
        expect([bad.statusCode, bad.json().code]).toEqual([400, 'validation_failed'])
      }
      const conflicting = await editor.patch(url, { ...current, nextStep: 'organize', content: { ...current.content, nextStep: 'moodboard' } })
      expect([conflicting.statusCode, conflicting.json().code]).toEqual([400, 'validation_failed'])
      expect((await viewer.patch(url, { ...current, nextStep: 'organize' })).statusCode).toBe(403)
      const activity = (await viewer.get(`${url}/activity`)).json()
      expect(activity.filter((entry: { field?: string }) => entry.field === 'nextStep').map((entry: { oldValue?: string; newValue?: string }) => [entry.oldValue ?? null, entry.newValue ?? null]))
        .toEqual([['organize', 'moodboard'], ['moodboard', 'visual-proposal'], ['visual-proposal', null]])
    })

    it('lets exactly one of two simultaneous edits with the same expected hash win', async () => {
      const object = await capture(owner, session.id, { title: 'Race' })
      const [a, b] = await Promise.all([
        owner.patch(`/v1/workobjects/${object.id}`, { expectedRevisionHash: object.revisionHash, content: { title: 'Race A' } }),
        editor.patch(`/v1/workobjects/${object.id}`, { expectedRevisionHash: object.revisionHash, content: { title: 'Race B' } }),
      ])
      expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409])
      const winner = a.statusCode === 200 ? a.json() : b.json()
      const loser = a.statusCode === 409 ? a.json() : b.json()
      expect(loser).toMatchObject({ code: 'stale_revision', currentRevisionHash: winner.revisionHash })
      expect((await owner.get(`/v1/workobjects/${object.id}/revisions`)).json().revisions).toHaveLength(2)
    })

    it('answers many simultaneous edits of one conversation each on its own (batched on PostgreSQL): one winner per object, consistent events and set revisions', async () => {
      const objects = await Promise.all(Array.from({ length: 6 }, (_, index) => capture(owner, session.id, { title: `Batch ${index}` })))
      const before = (await viewer.get(`/v1/worksets/${objects[0]!.workSetId}`)).json().workSet.revision as number
      const lastSeq = (await eventsOf(h, session.conversationId)).at(-1)!.seq
      const edit = (member: Member, object: { id: string }, expectedRevisionHash: string, title: string) =>
        member.patch(`/v1/workobjects/${object.id}`, { expectedRevisionHash, content: { title } })
      const answers = await Promise.all(objects.flatMap((object, index) => [
        edit(owner, object, object.revisionHash, `Owner ${index}`),
        edit(editor, object, object.revisionHash, `Editor ${index}`),
        edit(editor, object, 'f'.repeat(64), `Stale ${index}`),
      ]).concat([edit(owner, { id: 'wo_missing' }, objects[0]!.revisionHash, 'Nobody'), edit(stranger, objects[1]!, objects[1]!.revisionHash, 'Stranger')]))
      expect(answers.at(-2)!.statusCode).toBe(404)
      expect(answers.at(-1)!.statusCode).toBe(404)
      const winners = objects.map((object, index) => {
        const [a, b, stale] = answers.slice(index * 3, index * 3 + 3)
        expect([a!.statusCode, b!.statusCode].sort()).toEqual([200, 409])
        const winner = (a!.statusCode === 200 ? a! : b!).json()
        expect((a!.statusCode === 409 ? a! : b!).json()).toMatchObject({ code: 'stale_revision', currentRevisionHash: winner.revisionHash })
        expect(stale!.statusCode).toBe(409)
        expect([object.revisionHash, winner.revisionHash]).toContain(stale!.json().currentRevisionHash)
        expect(winner).toMatchObject({ id: object.id, revisionNumber: 2 })
        return winner
      })
      const detail = (await viewer.get(`/v1/worksets/${objects[0]!.workSetId}`)).json()
      for (const winner of winners) expect(detail.workObjects.find((object: { id: string }) => object.id === winner.id)).toMatchObject({ title: winner.title, revisionHash: winner.revisionHash })
      expect(detail.workSet.revision).toBe(before + objects.length)
      // Every edit logged its event and one set revision each, in seq order, none twice.
      const events = await eventsOf(h, session.conversationId, lastSeq)
      expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => lastSeq + 1 + index))
      expect(events.filter((event) => event.type === 'workobject.updated').map((event) => event.data.workObject.id).sort()).toEqual(objects.map((object) => object.id).sort())
      expect(events.filter((event) => event.type === 'workset.updated').map((event) => event.data.revision)).toEqual(objects.map((_, index) => before + 1 + index))
    })

    it('answers 400 to bad content, 403 to a view member and 404 across workspaces', async () => {
      const object = await capture(owner, session.id)
      const body = { expectedRevisionHash: object.revisionHash, content: { title: 'x' } }
      expect((await owner.patch(`/v1/workobjects/${object.id}`, { expectedRevisionHash: object.revisionHash, content: { title: ' ' } })).statusCode).toBe(400)
      expect((await owner.patch(`/v1/workobjects/${object.id}`, { content: { title: 'x' } })).statusCode).toBe(400)
      expect((await viewer.patch(`/v1/workobjects/${object.id}`, body)).statusCode).toBe(403)
      expect((await stranger.patch(`/v1/workobjects/${object.id}`, body)).statusCode).toBe(404)
      expect((await stranger.get(`/v1/workobjects/${object.id}/revisions`)).statusCode).toBe(404)
    })
  })
})
