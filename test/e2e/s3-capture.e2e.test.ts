// A capture whose audio lives in an S3-compatible bucket (s3rver): the real server stores each
// chunk as an object, transcribes it from there and gives every chunk back byte for byte. On
// PostgreSQL two nodes share the database and the bucket: node A takes the audio and runs no jobs,
// so node B transcribes from objects it never saw written, and serves them back.
import { ListObjectsV2Command } from '@aws-sdk/client-s3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createS3Client } from '../../src/platform/blobs/s3.ts'
import { createTestDatabase, databaseKinds, type TestDatabase } from '../databases.ts'
import { startLocalS3, type LocalS3 } from '../s3-server.ts'
import { hasFfmpeg, hasFlite, hasPocketsphinx, synthesizeMeeting, wordErrorRate } from '../speech.ts'
import { connectSocket } from '../ws-client.ts'
import { signInOverHttp, startMailCatcher, startServer, type MailCatcher, type RunningServer } from './server.ts'

const MEETING = [
  { voice: 'slt' as const, text: 'Good morning everyone. Let us look at the plan for this week.' },
  { voice: 'rms' as const, text: 'I will send the report to the team by Friday.' },
]
const CHUNK_BYTES = 64_000 // two seconds of 16 kHz 16-bit PCM

describe.skipIf(!(hasFlite && hasPocketsphinx && hasFfmpeg)).each(databaseKinds)('a capture stored on S3 [%s]', (kind) => {
  let s3: LocalS3
  let mail: MailCatcher
  let database: TestDatabase
  let ingest: RunningServer
  let reader: RunningServer

  beforeAll(async () => {
    s3 = await startLocalS3()
    mail = await startMailCatcher()
    database = await createTestDatabase(kind)
    const env = { ...s3.env, S3_PREFIX: 'e2e/', STT_ENGINE: 'pocketsphinx', SMTP_URL: mail.url, JOB_POLL_INTERVAL_MS: '100' }
    if (kind === 'postgres') {
      ingest = await startServer(kind, { ...env, WORKERS: '0' }, database)
      reader = await startServer(kind, env, database)
    } else {
      ingest = reader = await startServer(kind, env, database)
    }
  })
  afterAll(async () => {
    await ingest?.stop()
    if (reader !== ingest) await reader?.stop()
    await database?.drop()
    await mail?.close()
    await s3?.close()
  })

  it('stores the chunks as objects, transcribes them and reads each one back intact', async () => {
    expect((await (await fetch(`${reader.baseUrl}/healthz`)).json() as { blobStore: string }).blobStore).toBe('s3')
    const cookie = await signInOverHttp(ingest, mail, `s3-${kind}@example.com`)
    const headers = { 'content-type': 'application/json', cookie, origin: ingest.baseUrl }
    expect((await fetch(`${ingest.baseUrl}/v1/account/bootstrap`, { method: 'POST', headers, body: '{}' })).status).toBe(200)
    const session = await (await fetch(`${ingest.baseUrl}/v1/sessions`, { method: 'POST', headers, body: JSON.stringify({ captureMode: 'microphone' }) }))
      .json() as { id: string; conversationId: string }
    const socket = connectSocket(`${reader.baseUrl.replace(/^http/, 'ws')}/v1/conversations/${session.conversationId}/events`, { cookie })
    await socket.waitFor((message) => message.type === 'hello')

    const { pcm } = synthesizeMeeting(MEETING)
    const sent = new Map<string, Buffer>()
    for (let offset = 0, index = 0; offset < pcm.length; offset += CHUNK_BYTES, index += 1) {
      const body = pcm.subarray(offset, offset + CHUNK_BYTES)
      const response = await fetch(`${ingest.baseUrl}/v1/sessions/${session.id}/audio`, {
        method: 'POST', headers: { cookie, 'content-type': 'audio/pcm;rate=16000', 'x-service-chunk-id': `pcm-${index}` }, body,
      })
      expect(response.status, await response.clone().text()).toBe(200)
      sent.set(((await response.json()) as { chunkId: string }).chunkId, Buffer.from(body))
    }

    // Every chunk is an object under the prefix.
    const client = createS3Client(s3.config)
    const listed = await client.send(new ListObjectsV2Command({ Bucket: s3.config.bucket, Prefix: 'e2e/' }))
    client.destroy()
    expect(listed.Contents?.length ?? 0).toBeGreaterThanOrEqual(sent.size)

    // Read back through the other node: exactly the bytes that were sent.
    for (const [chunkId, body] of sent) {
      const response = await fetch(`${reader.baseUrl}/v1/sessions/${session.id}/chunks/${chunkId}`, { headers: { cookie } })
      expect(response.status).toBe(200)
      expect(Buffer.from(await response.arrayBuffer()).equals(body), `chunk ${chunkId}`).toBe(true)
    }

    expect((await fetch(`${ingest.baseUrl}/v1/sessions/${session.id}/end`, { method: 'POST', headers: { cookie } })).status).toBe(200)
    await socket.waitFor((message) => message.type === 'session.updated' && (message.data as { state: string }).state === 'ready', 90_000)
      .catch((error: unknown) => { throw new Error(`${(error as Error).message}\n${reader.output()}`) })
    const transcript = await (await fetch(`${reader.baseUrl}/v1/sessions/${session.id}/transcript?limit=200`, { headers: { cookie } })).json() as { segments: { text: string }[] }
    const text = transcript.segments.map((segment) => segment.text).join(' ')
    expect(wordErrorRate(MEETING.map((turn) => turn.text).join(' '), text), text).toBeLessThanOrEqual(0.35)
    expect(socket.messages.some((message) => message.type === 'transcript.final')).toBe(true)
    await socket.close()
  }, 180_000)
})
