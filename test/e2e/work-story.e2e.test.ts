// The work story end to end against the real server process: capture an action, edit it, claim
// it, move it to executing, designate a reviewer and request review, get changes requested,
// revise, get approved, move to accepted — watching the work channel, the notifications and the
// reviewer's realtime inbox.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { databaseKinds } from '../databases.ts'
import { connectSocket, type TestSocket } from '../ws-client.ts'
import { callJson, signInOverHttp, startMailCatcher, startServer, type MailCatcher, type RunningServer } from './server.ts'

const uniqueEmail = (label: string) => `${label}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}@example.com`

describe.each(databaseKinds)('the work story against the real server [%s]', (kind) => {
  let mail: MailCatcher
  let server: RunningServer
  let socket: TestSocket | undefined
  const call = (method: string, path: string, cookie: string, body?: unknown) => callJson(server, method, path, cookie, body)

  beforeAll(async () => {
    mail = await startMailCatcher()
    server = await startServer(kind, { SMTP_URL: mail.url })
  })
  afterAll(async () => {
    await socket?.close()
    await server?.stop()
    await mail?.close()
  })

  async function colleague(manager: string, label: string) {
    const email = uniqueEmail(label)
    const invited = await call('POST', '/v1/workspace/invitations', manager, { email, accessRole: 'member', contentPermission: 'edit' })
    const token = invited.inviteURL.slice(invited.inviteURL.lastIndexOf('/invite/') + '/invite/'.length)
    const cookie = await signInOverHttp(server, mail, email)
    const accepted = await call('POST', `/v1/invitations/${token}/accept`, cookie, {})
    return { cookie, accountId: accepted.member.accountId as string }
  }

  it('captures, edits, claims, executes, gets reviewed twice and is accepted', async () => {
    const manager = await signInOverHttp(server, mail, uniqueEmail('manager'))
    await call('POST', '/v1/account/bootstrap', manager, {})
    const doer = await colleague(manager, 'doer')
    const reviewer = await colleague(manager, 'reviewer')

    // The reviewer's realtime inbox: notifications are pushed as they commit.
    const inbox = connectSocket(`${server.baseUrl.replace(/^http/, 'ws')}/v1/collaboration/notifications/events`, { cookie: reviewer.cookie, origin: server.baseUrl })
    await inbox.waitFor((message) => message.type === 'hello')
    const session = await call('POST', '/v1/sessions', manager, { captureMode: 'microphone' })
    socket = connectSocket(session.workWebsocketURL, { cookie: manager, origin: server.baseUrl })
    await socket.waitFor((message) => message.type === 'hello')
    const seen = (type: string, predicate: (data: any) => boolean = () => true) =>
      socket!.waitFor((message) => message.type === type && predicate(message.data), 10_000)

    let object = await call('POST', `/v1/sessions/${session.id}/workobjects`, doer.cookie, { kind: 'action', title: 'Draft the launch mail' })
    expect(object).toMatchObject({ family: 'commitment', semanticType: 'task', stage: 'captured' })
    await seen('workobject.created', (data) => data.workObject.id === object.id)

    object = await call('PATCH', `/v1/workobjects/${object.id}`, doer.cookie, {
      expectedRevisionHash: object.revisionHash, content: { title: 'Draft the launch mail', summary: 'For Friday' },
    })
    await seen('workobject.updated', (data) => data.revision.id === object.revisionId)
    object = await call('POST', `/v1/workobjects/${object.id}/assignment`, doer.cookie, { action: 'claim' })
    expect(object.ownerId).toBe(doer.accountId)
    await seen('workobject.assigned', (data) => data.workObject.ownerId === doer.accountId)
    for (const [fromStage, toStage] of [['captured', 'structured'], ['structured', 'executing']]) {
      object = (await call('PATCH', `/v1/workobjects/${object.id}/stage`, doer.cookie, { fromStage, toStage })).workObject
    }
    await seen('workobject.stage', (data) => data.transition.toStage === 'executing')

    await call('POST', `/v1/reviews/${object.reviewId}/assignment`, doer.cookie, { action: 'assign', userId: reviewer.accountId })
    await call('POST', `/v1/reviews/${object.reviewId}/request`, doer.cookie, { revisionId: object.revisionId })
    await seen('workobject.review', (data) => data.review.state === 'requested')
    const reviewerNews = await call('GET', '/v1/collaboration/notifications', reviewer.cookie)
    expect(reviewerNews.notifications.map((n: { kind: string }) => n.kind)).toEqual(expect.arrayContaining(['review.assigned', 'review.requested']))
    const pushed = await inbox.waitFor((message) => message.type === 'notification.created' && message.data.notification.kind === 'review.requested')
    expect(pushed.data.notification.id).toBe(reviewerNews.notifications.find((n: { kind: string }) => n.kind === 'review.requested').id)
    await inbox.close()

    const changes = await call('POST', `/v1/reviews/${object.reviewId}/decisions`, reviewer.cookie, {
      revisionId: object.revisionId, decision: 'changes-requested', note: 'Mention the pricing',
    })
    object = changes.workObject
    await seen('workobject.review', (data) => data.review.state === 'changes-requested')
    const doerNews = await call('GET', '/v1/collaboration/notifications', doer.cookie)
    expect(doerNews.notifications[0]).toMatchObject({ kind: 'review.decided' })

    object = await call('PATCH', `/v1/workobjects/${object.id}`, doer.cookie, {
      expectedRevisionHash: object.revisionHash, content: { title: 'Draft the launch mail', summary: 'For Friday, with pricing' },
    })
    await call('POST', `/v1/reviews/${object.reviewId}/request`, doer.cookie, { revisionId: object.revisionId })
    const approved = await call('POST', `/v1/reviews/${object.reviewId}/decisions`, reviewer.cookie, { revisionId: object.revisionId, decision: 'approved' })
    expect(approved.review).toMatchObject({ state: 'approved', revisionId: object.revisionId })
    object = approved.workObject

    object = (await call('PATCH', `/v1/workobjects/${object.id}/stage`, doer.cookie, { fromStage: 'executing', toStage: 'ready-for-review' })).workObject
    const accepted = await call('PATCH', `/v1/workobjects/${object.id}/stage`, doer.cookie, { fromStage: 'ready-for-review', toStage: 'accepted' })
    expect(accepted.workObject.stage).toBe('accepted')
    const last = await seen('workobject.stage', (data) => data.transition.toStage === 'accepted')
    // Each change is followed by the work set's new revision.
    const setUpdate = await socket.waitFor((message) => message.type === 'workset.updated' && message.seq === last.seq! + 1)
    expect(setUpdate.data).toMatchObject({ workSetId: object.workSetId })

    const detail = await call('GET', `/v1/worksets/${object.workSetId}`, manager)
    expect(detail.workObjects).toEqual([expect.objectContaining({ id: object.id, stage: 'accepted', ownerId: doer.accountId })])
    expect(detail.revisions).toHaveLength(3)
    expect(detail.reviewTasks.map((task: { state: string }) => task.state)).toEqual(['changes-requested', 'approved', 'open'])
    // Only work events reach a ?channel=work socket.
    expect(socket.messages.filter((message) => message.seq !== undefined).every((message) => /^(workobject|workset)\./.test(message.type))).toBe(true)
  })
})
