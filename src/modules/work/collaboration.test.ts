// Comments (members and share links) and AI proposals through HTTP and the exported functions.
import { beforeAll, describe, expect, it } from 'vitest'
import { eachDatabase, type Member } from '../../../test/harness.ts'
import { startRecording } from '../sessions/testing.ts'
import { seedSegments } from '../transcripts/testing.ts'
import { inviteAndJoin } from '../workspace/testing.ts'
import { addComment, createProposal, listSessionComments, proposeRevision } from './index.ts'
import { capture, eventsOf, notificationsOf } from './testing.ts'
import type { AppDeps } from '../../platform/deps.ts'

eachDatabase('comments and proposals', (h) => {
  let owner: Member
  let admin: Member
  let editor: Member
  let viewer: Member
  let stranger: Member
  let session: { id: string; conversationId: string }
  let deps: AppDeps

  beforeAll(async () => {
    owner = await h.member()
    admin = await inviteAndJoin(h, owner, { accessRole: 'admin', contentPermission: 'edit' })
    editor = await inviteAndJoin(h, owner, { contentPermission: 'edit' })
    viewer = await inviteAndJoin(h, owner, { contentPermission: 'view' })
    stranger = await h.member()
    session = await startRecording(owner)
    deps = h.app.deps
  })

  describe('comments', () => {
    it('lets view members comment, notifies the owner and earlier commenters, never the author', async () => {
      const object = await capture(owner, session.id, { title: 'Discuss me' })
      await editor.post(`/v1/workobjects/${object.id}/assignment`, { action: 'claim' })
      const first = await viewer.post(`/v1/workobjects/${object.id}/comments`, { body: ' Looks risky ' })
      expect(first.statusCode, first.body).toBe(200)
      expect(first.json()).toMatchObject({ workObjectId: object.id, body: 'Looks risky', authorId: viewer.accountId, viaShare: false })
      await editor.post(`/v1/workobjects/${object.id}/comments`, { body: 'Agreed' })
      const list = (await viewer.get(`/v1/workobjects/${object.id}/comments`)).json()
      expect(list.map((comment: { body: string }) => comment.body)).toEqual(['Looks risky', 'Agreed'])
      expect((await notificationsOf(h, editor.accountId)).filter((n) => n.kind === 'comment.created' && n.subjectId === object.id)).toHaveLength(1)
      expect((await notificationsOf(h, viewer.accountId)).filter((n) => n.kind === 'comment.created' && n.subjectId === object.id)).toHaveLength(1)
      const events = (await eventsOf(h, session.conversationId)).filter((event) => event.type === 'workobject.comment')
      expect(events.at(-1)!.data).toMatchObject({ action: 'created', comment: { body: 'Agreed' } })
      expect((await stranger.get(`/v1/workobjects/${object.id}/comments`)).statusCode).toBe(404)
      expect((await stranger.post(`/v1/workobjects/${object.id}/comments`, { body: 'x' })).statusCode).toBe(404)
      expect((await viewer.post(`/v1/workobjects/${object.id}/comments`, { body: '' })).statusCode).toBe(400)
      expect((await viewer.post(`/v1/workobjects/${object.id}/comments`, { body: '   ' })).statusCode).toBe(400)
    })

    it('lets only the author edit, guarded by expectedUpdatedAt, and the author or a manager delete', async () => {
      const object = await capture(owner, session.id)
      const comment = (await viewer.post(`/v1/workobjects/${object.id}/comments`, { body: 'v1' })).json()
      const url = `/v1/workobjects/${object.id}/comments/${comment.id}`
      expect((await editor.patch(url, { expectedUpdatedAt: comment.updatedAt, body: 'hijack' })).statusCode).toBe(403)
      const edited = await viewer.patch(url, { expectedUpdatedAt: comment.updatedAt, body: 'v2' })
      expect(edited.json()).toMatchObject({ body: 'v2' })
      expect((await viewer.patch(url, { expectedUpdatedAt: comment.updatedAt, body: 'v3' })).json())
        .toMatchObject({ status: 409, code: 'stale_timestamp', currentUpdatedAt: edited.json().updatedAt })
      const [a, b] = await Promise.all([
        viewer.patch(url, { expectedUpdatedAt: edited.json().updatedAt, body: 'A' }),
        viewer.patch(url, { expectedUpdatedAt: edited.json().updatedAt, body: 'B' }),
      ])
      expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409])
      expect((await viewer.patch(url, { body: 'no guard' })).statusCode).toBe(400)
      expect((await stranger.patch(url, { expectedUpdatedAt: comment.updatedAt, body: 'x' })).statusCode).toBe(404)
      expect((await editor.delete(url)).statusCode).toBe(403)
      expect((await admin.delete(url)).json()).toEqual({ deleted: true, commentId: comment.id })
      expect((await viewer.get(`/v1/workobjects/${object.id}/comments`)).json()).toEqual([])
      expect((await viewer.delete(url)).statusCode).toBe(404)
    })

    it('shows comments made through a share link among the object\'s comments', async () => {
      const object = await capture(owner, session.id)
      const comment = await addComment(deps, h.database.db, {
        workObjectId: object.id, body: 'From outside', author: { shareId: 'shr_test', displayName: 'Guest' }, sessionId: session.id,
      })
      expect(comment).toMatchObject({ authorName: 'Guest', viaShare: true })
      expect(comment.authorId).toBeUndefined()
      const list = (await owner.get(`/v1/workobjects/${object.id}/comments`)).json()
      expect(list).toEqual([expect.objectContaining({ body: 'From outside', authorName: 'Guest', viaShare: true })])
      expect((await listSessionComments(deps, session.id)).map((c) => c.id)).toContain(comment.id)
      await expect(addComment(deps, h.database.db, {
        workObjectId: object.id, body: 'Wrong session', author: { shareId: 'shr_test', displayName: 'Guest' }, sessionId: 'ses_other',
      })).rejects.toMatchObject({ code: 'not_found' })
    })
  })

  describe('proposals', () => {
    it('an AI-made object arrives as a pending proposal; a person accepts it with expectedRevisionId', async () => {
      const segments = await seedSegments(h, session, [{ text: 'Someone should call the vendor.' }])
      const proposed = await createProposal(deps, h.database.db, {
        sessionId: session.id, kind: 'action', title: 'Call the vendor', summary: null, sourceSegmentIds: segments, confidence: 0.72,
      })
      expect(proposed).toMatchObject({ origin: 'ai', confidence: 0.72, stage: 'captured', proposal: { state: 'pending', kind: 'object', revisionId: proposed.revisionId } })
      expect(proposed.createdById).toBeUndefined()
      const url = `/v1/workobjects/${proposed.id}`
      expect((await owner.patch(`${url}/stage`, { fromStage: 'captured', toStage: 'structured' })).json().code).toBe('proposal_pending')
      expect((await owner.patch(url, { expectedRevisionHash: proposed.revisionHash, content: { title: 'x' } })).json().code).toBe('proposal_pending')
      expect((await viewer.patch(`${url}/proposal`, { decision: 'accept', expectedRevisionId: proposed.revisionId })).statusCode).toBe(403)
      expect((await stranger.patch(`${url}/proposal`, { decision: 'accept', expectedRevisionId: proposed.revisionId })).statusCode).toBe(404)
      expect((await owner.patch(`${url}/proposal`, { decision: 'accept', expectedRevisionId: 'rev_other' })).json()).toMatchObject({ status: 409, code: 'stale_revision' })
      expect((await owner.patch(`${url}/proposal`, { decision: 'maybe', expectedRevisionId: proposed.revisionId })).statusCode).toBe(400)
      const [a, b] = await Promise.all([
        owner.patch(`${url}/proposal`, { decision: 'accept', expectedRevisionId: proposed.revisionId, note: 'yes' }),
        editor.patch(`${url}/proposal`, { decision: 'reject', expectedRevisionId: proposed.revisionId }),
      ])
      expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409])
      const winner = a.statusCode === 200 ? a.json() : b.json()
      expect(winner.decision).toMatchObject({ workObjectId: proposed.id, revisionId: proposed.revisionId })
      expect(['accepted', 'rejected']).toContain(winner.workObject.proposal.state)
    })

    it('a rejected proposal leaves the work set but stays readable', async () => {
      const proposed = await createProposal(deps, h.database.db, { sessionId: session.id, kind: 'decision', title: 'Use Postgres', sourceSegmentIds: [], confidence: 0.4 })
      const rejected = (await owner.patch(`/v1/workobjects/${proposed.id}/proposal`, { decision: 'reject', expectedRevisionId: proposed.revisionId })).json()
      expect(rejected.workObject.proposal.state).toBe('rejected')
      const detail = (await owner.get(`/v1/worksets/${proposed.workSetId}`)).json()
      expect(detail.workObjects.map((o: { id: string }) => o.id)).not.toContain(proposed.id)
      expect(detail.revisions.map((r: { workObjectId: string }) => r.workObjectId)).not.toContain(proposed.id)
      expect((await owner.get(`/v1/workobjects/${proposed.id}`)).json().proposal.state).toBe('rejected')
      await expect(createProposal(deps, h.database.db, { sessionId: session.id, kind: 'decision', semanticType: 'task', title: 'x', sourceSegmentIds: [], confidence: 1 }))
        .rejects.toMatchObject({ code: 'validation_failed' })
    })

    it('an AI-made revision waits beside the current one until accepted; an edit in between makes it stale', async () => {
      const object = await capture(owner, session.id, { title: 'Plan' })
      const first = await proposeRevision(deps, h.database.db, { workObjectId: object.id, title: 'Plan v2', summary: 'AI', confidence: 0.8 })
      expect(first!.workObject).toMatchObject({ title: 'Plan', proposal: { state: 'pending', kind: 'revision', revisionId: first!.revision.id } })
      const second = await proposeRevision(deps, h.database.db, { workObjectId: object.id, title: 'Plan v3', confidence: 0.9 })
      const url = `/v1/workobjects/${object.id}/proposal`
      expect((await owner.patch(url, { decision: 'accept', expectedRevisionId: first!.revision.id })).json()).toMatchObject({ status: 409, code: 'stale_revision', pendingRevisionId: second!.revision.id })
      const accepted = (await owner.patch(url, { decision: 'accept', expectedRevisionId: second!.revision.id })).json()
      expect(accepted.workObject).toMatchObject({ title: 'Plan v3', revisionId: second!.revision.id, revisionHash: second!.revision.hash })
      expect(accepted.workObject.proposal).toBeUndefined()
      const third = await proposeRevision(deps, h.database.db, { workObjectId: object.id, title: 'Plan v4', confidence: 0.5 })
      await owner.patch(`/v1/workobjects/${object.id}`, { expectedRevisionHash: accepted.workObject.revisionHash, content: { title: 'Human edit' } })
      expect((await owner.patch(url, { decision: 'accept', expectedRevisionId: third!.revision.id })).json().code).toBe('stale_revision')
      expect((await owner.patch(url, { decision: 'reject', expectedRevisionId: third!.revision.id })).statusCode).toBe(200)
      expect((await owner.patch(url, { decision: 'accept', expectedRevisionId: third!.revision.id })).json().code).toBe('transition_not_allowed')
      const states = (await owner.get(`/v1/workobjects/${object.id}/revisions`)).json().revisions.map((r: { proposalState?: string }) => r.proposalState ?? 'person')
      expect(states).toEqual(['person', 'superseded', 'accepted', 'rejected', 'person'])
    })
  })
})
