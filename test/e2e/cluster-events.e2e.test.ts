// Two server processes on one PostgreSQL database: an event caused through node A reaches a
// socket held by node B, and a client that reconnects with afterSeq — to either node — gets every
// event it missed exactly once.
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, postgresUrl, type TestDatabase } from '../databases.ts'
import { connectSocket, type Message } from '../ws-client.ts'
import { signInOverHttp, startMailCatcher, startServer, type MailCatcher, type RunningServer } from './server.ts'

const seqsOf = (messages: Message[]) => messages.filter((m) => m.seq !== undefined).map((m) => m.seq!)

describe.skipIf(!postgresUrl)('realtime across two nodes [postgres]', () => {
  let database: TestDatabase
  let mail: MailCatcher
  let nodeA: RunningServer
  let nodeB: RunningServer
  let cookie: string

  beforeAll(async () => {
    database = await createTestDatabase('postgres')
    mail = await startMailCatcher()
    nodeA = await startServer('postgres', { SMTP_URL: mail.url }, database)
    nodeB = await startServer('postgres', { SMTP_URL: mail.url }, database)
    cookie = await signInOverHttp(nodeA, mail, `cluster-${Date.now()}@example.com`)
    const boot = await fetch(`${nodeA.baseUrl}/v1/account/bootstrap`, { method: 'POST', headers: { cookie } })
    expect(boot.status).toBe(200)
  })
  afterAll(async () => {
    await nodeA?.stop()
    await nodeB?.stop()
    await mail?.close()
    await database?.drop()
  })

  const call = (node: RunningServer, method: string, route: string, body?: unknown) => fetch(`${node.baseUrl}${route}`, {
    method,
    headers: { cookie, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  })
  const socketOn = (node: RunningServer, conversationId: string, afterSeq?: number) => connectSocket(
    `ws://127.0.0.1:${node.port}/v1/conversations/${conversationId}/events${afterSeq === undefined ? '' : `?afterSeq=${afterSeq}`}`,
    { cookie })

  it('delivers an event caused on node A to a socket on node B, and replays across nodes exactly once', async () => {
    const created = await call(nodeA, 'POST', '/v1/sessions', { captureMode: 'microphone-and-system-audio' })
    expect(created.status).toBe(200)
    const session = await created.json() as { id: string; conversationId: string }

    const onB = socketOn(nodeB, session.conversationId)
    await onB.waitFor((m) => m.type === 'hello')
    expect((await call(nodeA, 'PATCH', `/v1/sessions/${session.id}`, { title: 'from node A' })).status).toBe(200)
    const seen = await onB.waitFor((m) => m.type === 'session.updated' && m.data.title === 'from node A', 10_000)
    await onB.close()

    for (const [node, title] of [[nodeA, 'missed 1'], [nodeB, 'missed 2'], [nodeA, 'missed 3']] as const) {
      expect((await call(node, 'PATCH', `/v1/sessions/${session.id}`, { title })).status).toBe(200)
    }
    const back = socketOn(nodeA, session.conversationId, seen.seq)
    await back.waitFor((m) => m.type === 'session.updated' && m.data.title === 'missed 3', 10_000)
    expect((await call(nodeB, 'PATCH', `/v1/sessions/${session.id}`, { title: 'live again' })).status).toBe(200)
    await back.waitFor((m) => m.type === 'session.updated' && m.data.title === 'live again', 10_000)
    const titles = back.messages.filter((m) => m.type === 'session.updated').map((m) => m.data.title)
    expect(titles).toEqual(['missed 1', 'missed 2', 'missed 3', 'live again'])
    const seqs = seqsOf(back.messages)
    expect(seqs[0]).toBe(seen.seq! + 1)
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, index) => seen.seq! + 1 + index))
    await back.close()
  })

  it('keeps delivering after the LISTEN connections are cut (nodes reconnect and catch up)', async () => {
    const created = await call(nodeA, 'POST', '/v1/sessions', { captureMode: 'microphone' })
    const session = await created.json() as { id: string; conversationId: string }
    const onB = socketOn(nodeB, session.conversationId)
    await onB.waitFor((m) => m.type === 'hello')
    const admin = new pg.Client({ connectionString: postgresUrl })
    await admin.connect()
    const { rowCount } = await admin.query(
      "select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'confer-realtime-listen' and query like $1",
      [`%${database.target.schema}%`])
    await admin.end()
    expect(rowCount).toBeGreaterThanOrEqual(2)
    expect((await call(nodeA, 'PATCH', `/v1/sessions/${session.id}`, { title: 'while reconnecting' })).status).toBe(200)
    await onB.waitFor((m) => m.type === 'session.updated' && m.data.title === 'while reconnecting', 10_000)
    await onB.close()
  })
})
