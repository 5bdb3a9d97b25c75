import type { AddressInfo } from 'node:net'
import { beforeAll, expect, it } from 'vitest'
import { eachDatabase } from '../../../test/harness.ts'
import { connectSocket } from '../../../test/ws-client.ts'
import { joinWorkspace, startRecording } from '../sessions/testing.ts'

eachDatabase('notification inbox (realtime)', (h) => {
  let base = ''
  beforeAll(async () => {
    await h.app.listen({ port: 0, host: '127.0.0.1' })
    base = `ws://127.0.0.1:${(h.app.server.address() as AddressInfo).port}/v1/collaboration/notifications/events`
  })

  it('pushes each notification to its recipient only, as it commits, and replays after afterSeq', async () => {
    const owner = await h.member()
    const doer = await joinWorkspace(h, owner.workspaceId, 'edit')
    const bystander = await joinWorkspace(h, owner.workspaceId, 'edit')
    const inbox = connectSocket(base, { cookie: doer.cookie! })
    const other = connectSocket(base, { cookie: bystander.cookie! })
    expect((await inbox.waitFor((message) => message.type === 'hello')).data).toMatchObject({ afterSeq: 0 })
    await other.waitFor((message) => message.type === 'hello')

    const session = await startRecording(owner)
    const object = (await owner.post(`/v1/sessions/${session.id}/workobjects`, { kind: 'action', title: 'Renew the certificate' })).json()
    expect((await owner.post(`/v1/workobjects/${object.id}/assignment`, { action: 'assign', userId: doer.accountId })).statusCode).toBe(200)
    const pushed = await inbox.waitFor((message) => message.type === 'notification.created')
    expect(pushed).toMatchObject({
      seq: 1,
      data: { notification: { kind: 'workobject.assigned', workspaceId: owner.workspaceId, actor: { accountId: owner.accountId }, subjectId: object.id, read: false, data: { title: 'Renew the certificate' } } },
    })
    const listed = (await doer.get('/v1/collaboration/notifications')).json().notifications
    expect(listed[0].id).toBe((pushed.data as { notification: { id: string } }).notification.id)

    // Nobody else's inbox hears of it.
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(other.messages.filter((message) => message.type === 'notification.created')).toHaveLength(0)

    // Reconnecting after the last seen seq replays nothing twice; from 0 it replays the one.
    await inbox.close()
    const again = connectSocket(`${base}?afterSeq=0`, { cookie: doer.cookie! })
    await again.waitFor((message) => message.type === 'notification.created' && message.seq === 1)
    await again.close()
    const caughtUp = connectSocket(`${base}?afterSeq=1`, { cookie: doer.cookie! })
    await caughtUp.waitFor((message) => message.type === 'hello')
    await owner.post(`/v1/workobjects/${object.id}/assignment`, { action: 'release' })
    const next = await caughtUp.waitFor((message) => message.type === 'notification.created')
    expect(next).toMatchObject({ seq: 2, data: { notification: { kind: 'workobject.unassigned' } } })
    await caughtUp.close()
    await other.close()
  })

  it('closes with 1008 without a session and for an untrusted origin', async () => {
    const anonymous = connectSocket(base)
    expect((await anonymous.closed).code).toBe(1008)
    const owner = await h.member()
    const hijack = connectSocket(base, { cookie: owner.cookie!, origin: 'https://evil.example' })
    expect((await hijack.closed).code).toBe(1008)
  })
})
