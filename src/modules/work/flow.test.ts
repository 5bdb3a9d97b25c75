// Stages, responsibility and assignment through HTTP: each rule of interface §3 / DESIGN §7, each
// permission and each guard under real concurrency.
import { beforeAll, describe, expect, it } from 'vitest'
import { eachDatabase, type Member } from '../../../test/harness.ts'
import { canMoveStage } from './policy.ts'
import { capture, eventsOf, notificationsOf, workTeam, type WorkObjectBody } from './testing.ts'

describe('stage moves (pure rule)', () => {
  it('allows one step forward or any number back, nothing else', () => {
    expect(canMoveStage('captured', 'structured')).toBe(true)
    expect(canMoveStage('captured', 'executing')).toBe(false)
    expect(canMoveStage('accepted', 'captured')).toBe(true)
    expect(canMoveStage('executing', 'executing')).toBe(false)
  })
})

eachDatabase('work flow', (h) => {
  let owner: Member
  let admin: Member
  let editor: Member
  let other: Member
  let viewer: Member
  let stranger: Member
  let sessionId: string

  beforeAll(async () => {
    ;({ owner, admin, editor, other, viewer, stranger, sessionId } = await workTeam(h, ['editor', 'other']))
  })

  const stage = (member: Member, object: { id: string }, fromStage: string, toStage: string, note?: string) =>
    member.patch(`/v1/workobjects/${object.id}/stage`, { fromStage, toStage, ...(note ? { note } : {}) })

  describe('stage', () => {
    it('moves one step forward with fromStage, answers the transition, logs it and emits workobject.stage', async () => {
      const object = await capture(owner, sessionId)
      const moved = await stage(editor, object, 'captured', 'structured', 'clear enough')
      expect(moved.statusCode, moved.body).toBe(200)
      expect(moved.json()).toMatchObject({
        workObject: { id: object.id, stage: 'structured' },
        transition: { workObjectId: object.id, fromStage: 'captured', toStage: 'structured', note: 'clear enough', actorId: editor.accountId },
      })
      const events = await eventsOf(h, object.conversationId)
      expect(events.filter((event) => event.type === 'workobject.stage').at(-1)!.data.transition.toStage).toBe('structured')
      const activity = (await owner.get(`/v1/workobjects/${object.id}/activity`)).json()
      expect(activity.at(-1)).toMatchObject({ verb: 'moved', field: 'stage', oldValue: 'captured', newValue: 'structured', note: 'clear enough', actorId: editor.accountId })
    })

    it('answers 409 stage_conflict with the current stage when fromStage is not current', async () => {
      const object = await capture(owner, sessionId)
      const response = await stage(owner, object, 'structured', 'executing')
      expect(response.statusCode).toBe(409)
      expect(response.json()).toMatchObject({ code: 'stage_conflict', currentStage: 'captured' })
    })

    it('refuses skipping forward and allows going back any number of steps', async () => {
      const object = await capture(owner, sessionId)
      const skip = await stage(owner, object, 'captured', 'executing')
      expect(skip.json()).toMatchObject({ status: 409, code: 'transition_not_allowed' })
      for (const [from, to] of [['captured', 'structured'], ['structured', 'executing'], ['executing', 'ready-for-review']]) {
        expect((await stage(owner, object, from!, to!)).statusCode).toBe(200)
      }
      expect((await stage(owner, object, 'ready-for-review', 'captured')).json().workObject.stage).toBe('captured')
      expect((await stage(owner, object, 'captured', 'captured')).statusCode).toBe(409)
    })

    it('refuses accepted without an approved review of the current revision', async () => {
      const object = await capture(owner, sessionId)
      for (const [from, to] of [['captured', 'structured'], ['structured', 'executing'], ['executing', 'ready-for-review']]) {
        await stage(owner, object, from!, to!)
      }
      const response = await stage(owner, object, 'ready-for-review', 'accepted')
      expect(response.json()).toMatchObject({ status: 409, code: 'transition_not_allowed', reason: 'review_required', currentRevisionId: object.revisionId })
    })

    it('lets exactly one of two simultaneous moves from the same stage win', async () => {
      const object = await capture(owner, sessionId)
      const [a, b] = await Promise.all([stage(owner, object, 'captured', 'structured'), stage(editor, object, 'captured', 'structured')])
      expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409])
      expect([a.json().code, b.json().code]).toContain('stage_conflict')
    })

    it('answers 400, 403 to a view member and 404 across workspaces', async () => {
      const object = await capture(owner, sessionId)
      expect((await stage(owner, object, 'captured', 'done')).statusCode).toBe(400)
      expect((await owner.patch(`/v1/workobjects/${object.id}/stage`, { toStage: 'structured' })).statusCode).toBe(400)
      expect((await stage(viewer, object, 'captured', 'structured')).statusCode).toBe(403)
      expect((await stage(stranger, object, 'captured', 'structured')).statusCode).toBe(404)
    })
  })

  const claim = (member: Member, object: { id: string }) => member.post(`/v1/workobjects/${object.id}/assignment`, { action: 'claim' })

  describe('assignment', () => {
    it('lets an edit member claim unowned work; a second claimer gets 409', async () => {
      const object = await capture(owner, sessionId)
      const claimed = await claim(editor, object)
      expect(claimed.json()).toMatchObject({ ownerId: editor.accountId })
      expect((await claim(editor, object)).statusCode).toBe(200)
      expect((await claim(other, object)).json()).toMatchObject({ status: 409, code: 'transition_not_allowed', ownerId: editor.accountId })
      expect((await claim(viewer, object)).statusCode).toBe(403)
      expect((await claim(stranger, object)).statusCode).toBe(404)
    })

    it('lets exactly one of two simultaneous claims win', async () => {
      const object = await capture(owner, sessionId)
      const [a, b] = await Promise.all([claim(editor, object), claim(other, object)])
      expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409])
    })

    it('lets the owner or a manager assign to an edit member and release; notifies the assignee, never the actor', async () => {
      const object = await capture(owner, sessionId, { title: 'Assign me' })
      await claim(editor, object)
      const assign = (member: Member, userId: string) => member.post(`/v1/workobjects/${object.id}/assignment`, { action: 'assign', userId })
      expect((await assign(other, other.accountId)).statusCode).toBe(403)
      expect((await assign(editor, viewer.accountId)).json()).toMatchObject({ status: 400, errors: [{ field: 'userId', code: 'view_only' }] })
      expect((await assign(editor, stranger.accountId)).json()).toMatchObject({ status: 400, errors: [{ field: 'userId', code: 'not_a_member' }] })
      expect((await editor.post(`/v1/workobjects/${object.id}/assignment`, { action: 'assign' })).statusCode).toBe(400)
      expect((await assign(editor, other.accountId)).json().ownerId).toBe(other.accountId)
      const received = (await notificationsOf(h, other.accountId)).filter((n) => n.subjectId === object.id)
      expect(received).toEqual([expect.objectContaining({ kind: 'workobject.assigned', actor: editor.accountId, data: expect.objectContaining({ title: 'Assign me' }) })])
      // The editor handed it over themselves: nobody is told of their own action.
      expect((await notificationsOf(h, editor.accountId)).filter((n) => n.subjectId === object.id)).toEqual([])
      expect((await assign(admin, editor.accountId)).json().ownerId).toBe(editor.accountId)
      expect((await notificationsOf(h, other.accountId)).filter((n) => n.subjectId === object.id).map((n) => n.kind))
        .toEqual(['workobject.assigned', 'workobject.unassigned'])
      expect((await notificationsOf(h, editor.accountId)).filter((n) => n.subjectId === object.id).map((n) => n.kind)).toEqual(['workobject.assigned'])
      expect((await other.post(`/v1/workobjects/${object.id}/assignment`, { action: 'release' })).statusCode).toBe(403)
      const released = await admin.post(`/v1/workobjects/${object.id}/assignment`, { action: 'release' })
      expect(released.json().ownerId).toBeUndefined()
      const events = (await eventsOf(h, object.conversationId)).filter((event) => event.type === 'workobject.assigned' && event.data.workObject.id === object.id)
      expect(events.map((event) => event.data.action)).toEqual(['claim', 'assign', 'assign', 'release'])
    })
  })

  describe('responsibility', () => {
    let object: WorkObjectBody
    beforeAll(async () => {
      object = await capture(owner, sessionId)
      object = (await claim(editor, object)).json()
    })
    const change = (member: Member, expected: string, state: string, blockedReason?: string) =>
      member.patch(`/v1/workobjects/${object.id}/responsibility`, {
        expectedResponsibilityUpdatedAt: expected, state, ...(blockedReason === undefined ? {} : { blockedReason }),
      })

    it('lets the owner or a manager change it, independent of review and stage', async () => {
      expect((await change(other, object.responsibility.updatedAt, 'in-progress')).statusCode).toBe(403)
      const started = await change(editor, object.responsibility.updatedAt, 'in-progress')
      expect(started.statusCode, started.body).toBe(200)
      expect(started.json()).toMatchObject({ stage: 'captured', responsibility: { state: 'in-progress' } })
      const byAdmin = await change(admin, started.json().responsibility.updatedAt, 'done')
      expect(byAdmin.json().responsibility.state).toBe('done')
      expect((await notificationsOf(h, editor.accountId)).some((n) => n.kind === 'workobject.responsibility' && n.subjectId === object.id)).toBe(true)
      object = byAdmin.json()
    })

    it('requires blockedReason when blocked and clears it otherwise', async () => {
      expect((await change(editor, object.responsibility.updatedAt, 'blocked')).json()).toMatchObject({ status: 400, errors: [{ field: 'blockedReason' }] })
      expect((await change(editor, object.responsibility.updatedAt, 'blocked', '  ')).statusCode).toBe(400)
      const blocked = (await change(editor, object.responsibility.updatedAt, 'blocked', 'Waiting for legal')).json()
      expect(blocked.responsibility).toMatchObject({ state: 'blocked', blockedReason: 'Waiting for legal' })
      const unblocked = (await change(editor, blocked.responsibility.updatedAt, 'in-progress', 'ignored')).json()
      expect(unblocked.responsibility.blockedReason).toBeUndefined()
      object = unblocked
    })

    it('answers 409 with the current value to a stale expectedResponsibilityUpdatedAt, and lets one of two simultaneous changes win', async () => {
      const stale = await change(editor, '2020-01-01T00:00:00.000Z', 'done')
      expect(stale.json()).toMatchObject({ status: 409, code: 'stale_timestamp', currentResponsibilityUpdatedAt: object.responsibility.updatedAt })
      const [a, b] = await Promise.all([change(editor, object.responsibility.updatedAt, 'done'), change(admin, object.responsibility.updatedAt, 'todo')])
      expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409])
    })

    it('answers 400 to a bad state, 403 to a view member and 404 across workspaces', async () => {
      expect((await change(editor, object.responsibility.updatedAt, 'paused')).statusCode).toBe(400)
      expect((await change(viewer, object.responsibility.updatedAt, 'done')).statusCode).toBe(403)
      expect((await change(stranger, object.responsibility.updatedAt, 'done')).statusCode).toBe(404)
    })
  })
})
