// Cluster mode: two `serve` processes and one `worker` process on one PostgreSQL database. Jobs
// enqueued through node A (ending sessions) are each run by exactly one node, the session.updated
// they emit reaches a WebSocket held by node A whichever node ran them, and the nodes stop cleanly.
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, postgresUrl, tempDir, type TestDatabase } from '../databases.ts'
import { connectSocket } from '../ws-client.ts'
import { signInOverHttp, startMailCatcher, type MailCatcher, type RunningServer } from './server.ts'
import { call, startNode, type Node } from './capture-server.ts'

const SESSIONS = 30

describe.skipIf(!postgresUrl)('jobs across nodes on one PostgreSQL database', () => {
  let mail: MailCatcher
  let database: TestDatabase
  let client: pg.Client
  const nodes: Node[] = []
  beforeAll(async () => {
    mail = await startMailCatcher()
    database = await createTestDatabase('postgres')
    client = new pg.Client({ connectionString: database.url })
    await client.connect()
  })
  afterAll(async () => {
    for (const node of nodes) await node.stop()
    await client?.end()
    await mail?.close()
    await database?.drop()
  })

  it('runs each job enqueued through node A on exactly one node', async () => {
    const cluster = { BLOB_STORE: 'database', SMTP_URL: mail.url, JOB_POLL_INTERVAL_MS: '20', WORKERS: '2' }
    const nodeA = await startNode({ databaseUrl: database.url, dataDir: tempDir('confer-a-'), env: cluster })
    nodes.push(nodeA)
    // B and the worker start after A has migrated the shared database.
    const [nodeB, worker] = await Promise.all([
      startNode({ databaseUrl: database.url, dataDir: tempDir('confer-b-'), env: cluster }),
      startNode({ command: 'worker', databaseUrl: database.url, dataDir: tempDir('confer-w-'), env: cluster }),
    ])
    nodes.push(nodeB, worker)
    const pids = new Map([[nodeA.process.pid, 'A'], [nodeB.process.pid, 'B'], [worker.process.pid, 'worker']])

    const cookie = await signInOverHttp({ baseUrl: nodeA.baseUrl } as RunningServer, mail, `cluster-${Date.now()}@example.com`)
    expect((await call(nodeA, cookie, 'POST', '/v1/account/bootstrap', {})).status).toBe(200)

    // A socket on node A follows the first session; its processing may run on any node.
    const firstSession = await call(nodeA, cookie, 'POST', '/v1/sessions', { captureMode: 'microphone' })
    const socket = connectSocket(firstSession.body.websocketURL.replace('localhost', '127.0.0.1'), { cookie })
    await socket.waitFor((message) => message.type === 'hello')

    const sessionIds: string[] = [firstSession.body.id]
    for (let index = 0; index < SESSIONS; index += 1) {
      if (index > 0) sessionIds.push((await call(nodeA, cookie, 'POST', '/v1/sessions', { captureMode: 'microphone' })).body.id)
      expect((await call(nodeA, cookie, 'POST', `/v1/sessions/${sessionIds[index]}/end`)).status).toBe(200)
    }

    const ready = await socket.waitFor((message) => message.type === 'session.updated' && message.data.state === 'ready', 15_000)
    expect(ready.data.id).toBe(firstSession.body.id)
    await socket.close()

    const deadline = Date.now() + 20_000
    for (const sessionId of sessionIds) {
      // Read through node B: every node sees the same state.
      while ((await call(nodeB, cookie, 'GET', `/v1/sessions/${sessionId}`)).body.state !== 'ready') {
        if (Date.now() > deadline) throw new Error(`session ${sessionId} never became ready`)
        await new Promise((resolve) => setTimeout(resolve, 25))
      }
    }

    const { rows: jobs } = await client.query<{ dedupe_key: string; state: string; attempts: number; locked_by: string }>(
      `select dedupe_key, state, attempts, locked_by from jobs where name = 'sessions.process'`)
    expect(jobs.map((job) => job.dedupe_key).sort()).toEqual([...sessionIds].sort())
    expect(jobs.every((job) => job.state === 'succeeded' && Number(job.attempts) === 1)).toBe(true)
    const ranOn = jobs.map((job) => pids.get(Number(job.locked_by.split(':')[1])))
    expect(ranOn.every((name) => name !== undefined)).toBe(true)

    // Exactly one `ready` per session in the event log: no job ran twice.
    const { rows: readyEvents } = await client.query<{ session_id: string; count: number }>(
      `select data::json->>'id' as session_id, count(*)::int as count from conversation_events
       where type = 'session.updated' and data::json->>'state' = 'ready' group by 1`)
    expect(readyEvents.map((row) => row.session_id).sort()).toEqual([...sessionIds].sort())
    expect(readyEvents.every((row) => row.count === 1)).toBe(true)

    // Every node stops cleanly on SIGTERM.
    expect(await worker.stop()).toBe(0)
    expect(await nodeB.stop()).toBe(0)
    expect(await nodeA.stop()).toBe(0)
    const tally = Object.fromEntries([...new Set(ranOn)].map((name) => [name, ranOn.filter((other) => other === name).length]))
    console.info(`cluster jobs: ${SESSIONS} jobs ran on ${JSON.stringify(tally)}`)
  })
})
