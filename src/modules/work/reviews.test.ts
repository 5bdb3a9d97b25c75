// Reviews through HTTP: designating a reviewer, requesting, deciding; who may do each; the
// revision guard under concurrency; and the rule that accepted needs an approved review.
import { beforeAll, describe, expect, it } from 'vitest'
import { eachDatabase, type Member } from '../../../test/harness.ts'
import { capture, notificationsOf, workTeam, type WorkObjectBody } from './testing.ts'

eachDatabase('reviews', (h) => {
  let owner: Member
  let admin: Member
  let doer: Member
  let reviewer: Member
  let other: Member
  let viewer: Member
  let stranger: Member
  let sessionId: string

  beforeAll(async () => {
    ;({ owner, admin, doer, reviewer, other, viewer, stranger, sessionId } = await workTeam(h, ['doer', 'reviewer', 'other']))
  })

  /** An object `doer` is responsible for, with `reviewer` designated. */
  async function ownedObject(): Promise<WorkObjectBody> {
    const object = await capture(doer, sessionId)
    await doer.post(`/v1/workobjects/${object.id}/assignment`, { action: 'claim' })
    const assigned = await doer.post(`/v1/reviews/${object.reviewId}/assignment`, { action: 'assign', userId: reviewer.accountId })
    expect(assigned.statusCode, assigned.body).toBe(200)
    return assigned.json().workObject
  }
  const request = (member: Member, object: WorkObjectBody, revisionId = object.revisionId) =>
    member.post(`/v1/reviews/${object.reviewId}/request`, { revisionId })
  const decide = (member: Member, reviewId: string, revisionId: string, decision: string, extra: Record<string, unknown> = {}) =>
    member.post(`/v1/reviews/${reviewId}/decisions`, { revisionId, decision, ...extra })

  describe('designating a reviewer', () => {
    it('claim by an edit member, assign by the owner or a manager, release by the reviewer, owner or manager', async () => {
      const object = await capture(doer, sessionId)
      await doer.post(`/v1/workobjects/${object.id}/assignment`, { action: 'claim' })
      const claimed = await reviewer.post(`/v1/reviews/${object.reviewId}/assignment`, { action: 'claim' })
      expect(claimed.json()).toMatchObject({ review: { id: object.reviewId, state: 'open', reviewerId: reviewer.accountId }, workObject: { reviewerId: reviewer.accountId } })
      expect((await other.post(`/v1/reviews/${object.reviewId}/assignment`, { action: 'claim' })).json().code).toBe('transition_not_allowed')
      expect((await other.post(`/v1/reviews/${object.reviewId}/assignment`, { action: 'assign', userId: other.accountId })).statusCode).toBe(403)
      expect((await other.post(`/v1/reviews/${object.reviewId}/assignment`, { action: 'release' })).statusCode).toBe(403)
      expect((await reviewer.post(`/v1/reviews/${object.reviewId}/assignment`, { action: 'release' })).json().review.reviewerId).toBeUndefined()
      expect((await doer.post(`/v1/reviews/${object.reviewId}/assignment`, { action: 'assign', userId: viewer.accountId })).statusCode).toBe(400)
      expect((await admin.post(`/v1/reviews/${object.reviewId}/assignment`, { action: 'assign', userId: other.accountId })).json().review.reviewerId).toBe(other.accountId)
      expect((await notificationsOf(h, other.accountId)).filter((n) => n.subjectId === object.id).map((n) => n.kind)).toEqual(['review.assigned'])
      expect((await viewer.post(`/v1/reviews/${object.reviewId}/assignment`, { action: 'claim' })).statusCode).toBe(403)
      expect((await stranger.post(`/v1/reviews/${object.reviewId}/assignment`, { action: 'claim' })).statusCode).toBe(404)
    })
  })

  describe('requesting', () => {
    it('is for the responsible person or a manager, with a reviewer, on the current revision', async () => {
      const object = await ownedObject()
      expect((await request(other, object)).statusCode).toBe(403)
      expect((await request(reviewer, object)).statusCode).toBe(403)
      expect((await request(doer, object, 'rev_old')).json()).toMatchObject({ status: 409, code: 'stale_revision', currentRevisionId: object.revisionId })
      const requested = await request(doer, object)
      expect(requested.json().review).toMatchObject({ state: 'requested', revisionId: object.revisionId, requestedById: doer.accountId })
      expect((await notificationsOf(h, reviewer.accountId)).filter((n) => n.subjectId === object.id).map((n) => n.kind)).toEqual(['review.assigned', 'review.requested'])
      expect((await request(admin, object)).statusCode).toBe(200)
      expect((await request(viewer, object)).statusCode).toBe(403)
      expect((await request(stranger, object)).statusCode).toBe(404)
    })

    it('tells whoever requested the review the verdict, also when the object has no owner', async () => {
      const object = await capture(doer, sessionId)
      const assigned = (await admin.post(`/v1/reviews/${object.reviewId}/assignment`, { action: 'assign', userId: reviewer.accountId })).json().workObject
      expect((await request(admin, assigned)).statusCode).toBe(200)
      expect((await decide(reviewer, object.reviewId, assigned.revisionId, 'approved')).statusCode).toBe(200)
      expect((await notificationsOf(h, admin.accountId)).filter((n) => n.subjectId === object.id).map((n) => n.kind)).toEqual(['review.decided'])
    })

    it('needs a designated reviewer first', async () => {
      const object = await capture(doer, sessionId)
      await doer.post(`/v1/workobjects/${object.id}/assignment`, { action: 'claim' })
      expect((await request(doer, object)).json()).toMatchObject({ status: 409, code: 'transition_not_allowed' })
    })
  })

  describe('deciding', () => {
    it('approved lets the object enter accepted; an edit afterwards needs a new approval', async () => {
      let object = await ownedObject()
      await request(doer, object)
      expect((await decide(other, object.reviewId, object.revisionId, 'approved')).statusCode).toBe(403)
      expect((await decide(doer, object.reviewId, object.revisionId, 'approved')).statusCode).toBe(403)
      const approved = await decide(reviewer, object.reviewId, object.revisionId, 'approved', { note: 'LGTM' })
      expect(approved.json().review).toMatchObject({ state: 'approved', decision: 'approved', note: 'LGTM', decidedById: reviewer.accountId })
      object = approved.json().workObject
      expect(object.reviewId).not.toBe(approved.json().review.id)
      expect(object.reviewerId).toBe(reviewer.accountId)
      expect((await notificationsOf(h, doer.accountId)).filter((n) => n.subjectId === object.id).map((n) => n.kind)).toContain('review.decided')
      for (const [from, to] of [['captured', 'structured'], ['structured', 'executing'], ['executing', 'ready-for-review']]) {
        await doer.patch(`/v1/workobjects/${object.id}/stage`, { fromStage: from, toStage: to })
      }
      const edited = (await doer.patch(`/v1/workobjects/${object.id}`, { expectedRevisionHash: object.revisionHash, content: { title: 'Changed after approval' } })).json()
      expect((await doer.patch(`/v1/workobjects/${object.id}/stage`, { fromStage: 'ready-for-review', toStage: 'accepted' })).json().code).toBe('transition_not_allowed')
      await request(doer, edited)
      await decide(admin, edited.reviewId, edited.revisionId, 'approved')
      const accepted = await doer.patch(`/v1/workobjects/${object.id}/stage`, { fromStage: 'ready-for-review', toStage: 'accepted' })
      expect(accepted.json().workObject.stage).toBe('accepted')
    })

    it('answers 409 to a decision on a stale revision, and to a review not requested', async () => {
      const object = await ownedObject()
      expect((await decide(reviewer, object.reviewId, object.revisionId, 'approved')).json()).toMatchObject({ status: 409, code: 'transition_not_allowed' })
      await request(doer, object)
      const edited = (await doer.patch(`/v1/workobjects/${object.id}`, { expectedRevisionHash: object.revisionHash, content: { title: 'Moved on' } })).json()
      const stale = await decide(reviewer, object.reviewId, object.revisionId, 'approved')
      expect(stale.json()).toMatchObject({ status: 409, code: 'stale_revision', currentRevisionId: edited.revisionId })
      // Re-requesting pins the task to the new revision.
      expect((await request(doer, edited)).json().review.revisionId).toBe(edited.revisionId)
      expect((await decide(reviewer, object.reviewId, edited.revisionId, 'changes-requested')).json().review.state).toBe('changes-requested')
      expect((await decide(reviewer, object.reviewId, edited.revisionId, 'approved')).json().code).toBe('transition_not_allowed')
    })

    it('lets exactly one of two simultaneous decisions win', async () => {
      const object = await ownedObject()
      await request(doer, object)
      const [a, b] = await Promise.all([
        decide(reviewer, object.reviewId, object.revisionId, 'approved'),
        decide(admin, object.reviewId, object.revisionId, 'changes-requested'),
      ])
      expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409])
    })

    it('changes-requested keeps the reviewer on the next task; returned clears it', async () => {
      const object = await ownedObject()
      await request(doer, object)
      const changes = (await decide(reviewer, object.reviewId, object.revisionId, 'changes-requested')).json()
      expect(changes.workObject.reviewerId).toBe(reviewer.accountId)
      const next = changes.workObject
      await request(doer, next)
      const returned = (await decide(reviewer, next.reviewId, next.revisionId, 'returned')).json()
      expect(returned.review.state).toBe('returned')
      expect(returned.workObject.reviewerId).toBeUndefined()
    })

    it('taken-over makes the reviewer responsible; reassigned moves the task to another reviewer', async () => {
      const object = await ownedObject()
      await request(doer, object)
      expect((await decide(reviewer, object.reviewId, object.revisionId, 'reassigned')).json()).toMatchObject({ status: 400, errors: [{ field: 'reassignedToUserId' }] })
      expect((await decide(reviewer, object.reviewId, object.revisionId, 'reassigned', { reassignedToUserId: viewer.accountId })).statusCode).toBe(400)
      const moved = (await decide(reviewer, object.reviewId, object.revisionId, 'reassigned', { reassignedToUserId: other.accountId })).json()
      expect(moved.review).toMatchObject({ state: 'requested', reviewerId: other.accountId })
      expect((await notificationsOf(h, other.accountId)).filter((n) => n.subjectId === object.id).map((n) => n.kind)).toEqual(['review.requested'])
      expect((await decide(reviewer, object.reviewId, object.revisionId, 'approved')).statusCode).toBe(403)
      const taken = (await decide(other, object.reviewId, object.revisionId, 'taken-over')).json()
      expect(taken.review.state).toBe('taken-over')
      expect(taken.workObject).toMatchObject({ ownerId: other.accountId })
      expect(taken.workObject.reviewerId).toBeUndefined()
    })

    it('answers 400 to a bad decision, 403 to a view member and 404 across workspaces', async () => {
      const object = await ownedObject()
      await request(doer, object)
      expect((await decide(reviewer, object.reviewId, object.revisionId, 'maybe')).statusCode).toBe(400)
      expect((await decide(viewer, object.reviewId, object.revisionId, 'approved')).statusCode).toBe(403)
      expect((await decide(stranger, object.reviewId, object.revisionId, 'approved')).statusCode).toBe(404)
    })
  })
})
