// No acknowledged chunk is ever lost: the real server is killed with SIGKILL in the middle of a
// stream of chunk uploads, started again on the same database and data directory, and then every
// acknowledged chunk is there, byte for byte; re-sending the rest completes the stream with no duplicate.
import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, databaseKinds, tempDir, type TestDatabase } from '../databases.ts'
import { signInOverHttp, startMailCatcher, type MailCatcher, type RunningServer } from './server.ts'
import { call, startNode, type Node } from './capture-server.ts'

const CHUNKS = 300
const CHUNK_BYTES = 32 * 1024
const IN_FLIGHT = 8
const KILL_AFTER_ACKS = 80

/** Chunk i of the test stream: 16-bit PCM whose every byte depends on i. */
function chunkBytes(index: number): Buffer {
  const bytes = Buffer.alloc(CHUNK_BYTES)
  for (let offset = 0; offset < CHUNK_BYTES; offset += 4) bytes.writeUInt32LE((index * 2_654_435_761 + offset * 40_503) >>> 0, offset)
  return bytes
}
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')

function upload(node: Node, cookie: string, sessionId: string, index: number) {
  return fetch(`${node.baseUrl}/v1/sessions/${sessionId}/audio`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'audio/pcm;rate=16000', 'x-service-chunk-id': `chunk-${index}`, 'x-service-chunk-sequence': String(index) },
    body: chunkBytes(index),
  })
}

async function allChunks(node: Node, cookie: string, sessionId: string) {
  const chunks: { chunkId: string; sequence: number; sha256: string; byteSize: number }[] = []
  let cursor = ''
  do {
    const page = await call(node, cookie, 'GET', `/v1/sessions/${sessionId}/chunks?limit=200${cursor ? `&cursor=${cursor}` : ''}`)
    expect(page.status).toBe(200)
    chunks.push(...page.body.chunks)
    cursor = page.body.nextCursor ?? ''
  } while (cursor)
  return chunks
}

describe.each(databaseKinds)('audio survives SIGKILL of the real server [%s]', (kind) => {
  let mail: MailCatcher
  let database: TestDatabase
  const nodes: Node[] = []
  beforeAll(async () => {
    mail = await startMailCatcher()
    database = await createTestDatabase(kind)
  })
  afterAll(async () => {
    for (const node of nodes) await node.stop()
    await mail?.close()
    await database?.drop()
  })

  it('keeps every acknowledged chunk intact, and re-sending the rest completes the stream without duplicates', async () => {
    const dataDir = tempDir('confer-crash-')
    const env = { SMTP_URL: mail.url }
    const first = await startNode({ databaseUrl: database.url, dataDir, env })
    nodes.push(first)
    const cookie = await signInOverHttp({ baseUrl: first.baseUrl } as RunningServer, mail, `crash-${kind}-${Date.now()}@example.com`)
    expect((await call(first, cookie, 'POST', '/v1/account/bootstrap', {})).status).toBe(200)
    const session = await call(first, cookie, 'POST', '/v1/sessions', { captureMode: 'microphone' })
    expect(session.status).toBe(200)
    const sessionId: string = session.body.id

    // A stream with several chunks in flight; the server dies once enough were acknowledged.
    const acknowledged = new Set<number>()
    let next = 0
    let killed = false
    const stream = async () => {
      while (!killed && next < CHUNKS) {
        const index = next++
        try {
          const response = await upload(first, cookie, sessionId, index)
          const body = await response.json() as { duplicate?: boolean }
          if (response.status === 200 && body.duplicate === false) acknowledged.add(index)
        } catch {
          // the connection died with the server: this chunk is not acknowledged
        }
        if (!killed && acknowledged.size >= KILL_AFTER_ACKS) {
          killed = true
          first.process.kill('SIGKILL')
        }
      }
    }
    await Promise.all(Array.from({ length: IN_FLIGHT }, stream))
    expect(await first.exited).toBe('SIGKILL')
    expect(acknowledged.size).toBeGreaterThanOrEqual(KILL_AFTER_ACKS)
    expect(acknowledged.size).toBeLessThan(CHUNKS)

    const second = await startNode({ databaseUrl: database.url, dataDir, env })
    nodes.push(second)
    const survived = new Map((await allChunks(second, cookie, sessionId)).map((chunk) => [chunk.chunkId, chunk]))
    for (const index of acknowledged) {
      const chunk = survived.get(`chunk-${index}`)
      expect(chunk, `acknowledged chunk ${index}`).toMatchObject({ sequence: index, byteSize: CHUNK_BYTES, sha256: sha256(chunkBytes(index)) })
    }
    // Bytes, not just metadata: read a sample of acknowledged chunks back through the API.
    for (const index of [...acknowledged].slice(0, 20)) {
      const download = await fetch(`${second.baseUrl}/v1/sessions/${sessionId}/chunks/chunk-${index}`, { headers: { cookie } })
      expect(Buffer.from(await download.arrayBuffer()).equals(chunkBytes(index)), `bytes of chunk ${index}`).toBe(true)
    }

    // The client re-sends everything it has no acknowledgement for (some were stored just before the kill).
    const missing = Array.from({ length: CHUNKS }, (_, index) => index).filter((index) => !acknowledged.has(index))
    let duplicates = 0
    await Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
      for (let index = missing.shift(); index !== undefined; index = missing.shift()) {
        const response = await upload(second, cookie, sessionId, index)
        expect(response.status, `re-sent chunk ${index}`).toBe(200)
        if ((await response.json() as { duplicate: boolean }).duplicate) duplicates += 1
      }
    }))
    expect(duplicates).toBe(survived.size - acknowledged.size)

    const complete = await allChunks(second, cookie, sessionId)
    expect(complete.map((chunk) => chunk.sequence)).toEqual(Array.from({ length: CHUNKS }, (_, index) => index))
    expect(complete.map((chunk) => chunk.chunkId)).toEqual(Array.from({ length: CHUNKS }, (_, index) => `chunk-${index}`))
    expect(complete.every((chunk) => chunk.sha256 === sha256(chunkBytes(chunk.sequence)))).toBe(true)
    const snapshot = await call(second, cookie, 'GET', `/v1/sessions/${sessionId}`)
    expect(snapshot.body).toMatchObject({ state: 'recording', chunkCount: CHUNKS, audioBytes: CHUNKS * CHUNK_BYTES })
  }, 120_000)
})
