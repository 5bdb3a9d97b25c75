import { expect, it } from 'vitest'
import { eachDatabase, type Member } from '../../../test/harness.ts'
import { notify } from './index.ts'
import { inviteAndJoin } from '../workspace/testing.ts'

eachDatabase('notifications', (h) => {
  async function write(recipient: Member, count: number, kind = 'test.ping') {
    const ids: string[] = []
    for (let index = 0; index < count; index += 1) {
      ids.push((await notify(h.app.deps.events, h.database.db, {
        workspaceId: recipient.workspaceId, recipientAccountId: recipient.accountId, kind, data: { index },
      }))!)
    }
    return ids
  }

  it('lists the caller\'s notifications newest first, in pages, with the unread count', async () => {
    const person = await h.member()
    const ids = await write(person, 5)
    const first = await person.get('/v1/collaboration/notifications?limit=2')
    expect(first.statusCode).toBe(200)
    expect(first.json()).toMatchObject({ unreadCount: 5, nextCursor: expect.any(String) })
    expect(first.json().notifications.map((item: { id: string }) => item.id)).toEqual([ids[4], ids[3]])
    expect(first.json().notifications[0]).toEqual({
      id: ids[4], kind: 'test.ping', workspaceId: person.workspaceId, data: { index: 4 }, read: false, createdAt: expect.any(String),
    })
    const rest = await person.get(`/v1/collaboration/notifications?limit=10&cursor=${first.json().nextCursor}`)
    expect(rest.json().notifications.map((item: { id: string }) => item.id)).toEqual([ids[2], ids[1], ids[0]])
    expect(rest.json().nextCursor).toBeUndefined()
  })

  it('marks chosen notifications read, ignoring ids that are not the caller\'s, then all of them', async () => {
    const person = await h.member()
    const other = await h.member()
    const ids = await write(person, 3)
    const [foreign] = await write(other, 1)
    const some = await person.patch('/v1/collaboration/notifications', { notificationIds: [ids[0], ids[1], foreign] })
    expect(some.json()).toEqual({ updated: 2, unreadCount: 1 })
    expect((await person.patch('/v1/collaboration/notifications', { notificationIds: [ids[0]] })).json()).toEqual({ updated: 0, unreadCount: 1 })
    expect((await other.get('/v1/collaboration/notifications')).json().unreadCount).toBe(1)

    const unread = (await person.get('/v1/collaboration/notifications?unread=true')).json()
    expect(unread.notifications.map((item: { id: string }) => item.id)).toEqual([ids[2]])
    const read = (await person.get('/v1/collaboration/notifications')).json().notifications.find((item: { id: string }) => item.id === ids[0])
    expect(read).toMatchObject({ read: true, readAt: expect.any(String) })

    expect((await person.patch('/v1/collaboration/notifications', { all: true })).json()).toEqual({ updated: 1, unreadCount: 0 })
    for (const body of [{ all: false }, { notificationIds: [] }, {}, { all: true, notificationIds: [ids[0]] }]) {
      const response = await person.patch('/v1/collaboration/notifications', body)
      expect(response.statusCode, JSON.stringify(body)).toBe(400)
    }
  })

  it('keeps notifications to their workspace, notifies nobody of their own action, and lets view members mark theirs read', async () => {
    const owner = await h.member()
    const viewer = await inviteAndJoin(h, owner, { contentPermission: 'view' })
    expect(await notify(h.app.deps.events, h.database.db, {
      workspaceId: owner.workspaceId, recipientAccountId: owner.accountId, actorAccountId: owner.accountId, kind: 'self', data: {},
    })).toBeUndefined()
    await write(viewer, 2)
    // Each member sees only their own notifications.
    expect((await viewer.get('/v1/collaboration/notifications')).json().unreadCount).toBe(2)
    expect((await viewer.patch('/v1/collaboration/notifications', { all: true })).json()).toEqual({ updated: 2, unreadCount: 0 })
    // The owner's notification about the viewer joining stays in the owner's list only.
    expect((await owner.get('/v1/collaboration/notifications')).json().notifications.map((item: { kind: string }) => item.kind)).toEqual(['invitation.accepted'])
    // A nameless actor is named by their email (the web client said "Nobody joined the workspace.").
    const viewerEmail = (await viewer.get('/v1/account/current')).json().account.email
    expect((await owner.get('/v1/collaboration/notifications')).json().notifications[0].actor).toEqual({ accountId: viewer.accountId, name: viewerEmail })
    await viewer.patch('/v1/account/profile', { name: 'Vera Viewer' })
    expect((await owner.get('/v1/collaboration/notifications')).json().notifications[0].actor.name).toBe('Vera Viewer')

    const elsewhere = await h.member()
    await notify(h.app.deps.events, h.database.db, { workspaceId: elsewhere.workspaceId, recipientAccountId: owner.accountId, kind: 'other.workspace', data: {} })
    expect((await owner.get('/v1/collaboration/notifications')).json().unreadCount).toBe(1)
  })
})
