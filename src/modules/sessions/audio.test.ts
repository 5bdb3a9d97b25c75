import { createHash } from 'node:crypto'
import { expect, it } from 'vitest'
import { eachDatabase } from '../../../test/harness.ts'
import { AUDIO_CHUNK_MAX_BYTES } from './content-type.ts'
import { audioBytes, joinWorkspace, startRecording, uploadChunk } from './testing.ts'
import { wavFile } from '../../platform/speech/audio.ts'

/** The bytes as 16-bit PCM samples behind a RIFF/WAVE header. */
const wavOf = (bytes: Buffer) => wavFile(new Int16Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + (bytes.length & ~1))))

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')

eachDatabase('audio ingestion', (h) => {
  const blobFiles = async (sessionId: string) => h.database.db.selectFrom('audio_chunks').select(['chunk_id', 'blob_key'])
    .where('session_id', '=', sessionId).execute()

  it('stores a chunk durably and gives back the same bytes, counted in the snapshot', async () => {
    const owner = await h.member()
    const session = await startRecording(owner)
    const bytes = audioBytes('first')
    const response = await uploadChunk(owner, session.id, 'c-1', bytes)
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({ accepted: true, chunkId: 'c-1', duplicate: false, sequence: 0 })

    const listed = await owner.get(`/v1/sessions/${session.id}/chunks`)
    expect(listed.json().chunks).toEqual([{
      chunkId: 'c-1', sequence: 0, contentType: 'audio/pcm;rate=16000', byteSize: bytes.length, sha256: sha256(bytes), receivedAt: expect.any(String),
    }])
    const download = await owner.get(`/v1/sessions/${session.id}/chunks/c-1`)
    expect(download.headers['content-type']).toBe('audio/pcm;rate=16000')
    expect(download.rawPayload.equals(bytes)).toBe(true)
    const [row] = await blobFiles(session.id)
    expect(Buffer.from((await h.app.deps.blobs.get(row!.blob_key))!).equals(bytes)).toBe(true)
    expect((await owner.get(`/v1/sessions/${session.id}`)).json()).toMatchObject({ chunkCount: 1, audioBytes: bytes.length })
  })

  it('answers a repeated chunk id with duplicate: true and stores nothing new', async () => {
    const owner = await h.member()
    const session = await startRecording(owner)
    await uploadChunk(owner, session.id, 'same', audioBytes('a'))
    const again = await uploadChunk(owner, session.id, 'same', audioBytes('b'))
    expect(again.json()).toEqual({ accepted: true, chunkId: 'same', duplicate: true, sequence: 0 })
    expect((await owner.get(`/v1/sessions/${session.id}/chunks/same`)).rawPayload.equals(audioBytes('a'))).toBe(true)
    expect((await owner.get(`/v1/sessions/${session.id}`)).json()).toMatchObject({ chunkCount: 1, audioBytes: 3200 })
  })

  it('stores a chunk once when its copies arrive at the same time, and leaves no stray blob', async () => {
    const owner = await h.member()
    const session = await startRecording(owner)
    const bytes = audioBytes('twin')
    const answers = await Promise.all(Array.from({ length: 6 }, () => uploadChunk(owner, session.id, 'twin', bytes)))
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(6).fill(200))
    expect(answers.filter((answer) => answer.json().duplicate === false)).toHaveLength(1)
    expect(new Set(answers.map((answer) => answer.json().sequence))).toEqual(new Set([0]))
    expect(await blobFiles(session.id)).toHaveLength(1)
    if (h.app.deps.blobs.kind === 'fs') {
      const { readdir } = await import('node:fs/promises')
      // audio/<hour>/<session>.<random> (audio-commit.ts)
      const files = (await readdir(`${h.config.blobDir}/audio`, { recursive: true })).filter((name) => name.includes(session.id))
      expect(files).toHaveLength(1)
    }
    expect((await owner.get(`/v1/sessions/${session.id}`)).json().chunkCount).toBe(1)
  })

  it('keeps chunks in client sequence order, or in arrival order without one', async () => {
    const owner = await h.member()
    const ordered = await startRecording(owner)
    for (const sequence of [2, 0, 1]) await uploadChunk(owner, ordered.id, `s${sequence}`, audioBytes(`s${sequence}`), { sequence })
    const listed = (await owner.get(`/v1/sessions/${ordered.id}/chunks`)).json().chunks
    expect(listed.map((chunk: { chunkId: string }) => chunk.chunkId)).toEqual(['s0', 's1', 's2'])
    const taken = await uploadChunk(owner, ordered.id, 'other', audioBytes('x'), { sequence: 1 })
    expect(taken.statusCode).toBe(409)
    expect(taken.json()).toMatchObject({ code: 'conflict', sequence: 1 })
    const next = await uploadChunk(owner, ordered.id, 'tail', audioBytes('tail'))
    expect(next.json().sequence).toBe(3)
    await owner.post(`/v1/sessions/${ordered.id}/end`)

    const arrival = await startRecording(owner)
    const answers = []
    for (const id of ['x', 'y', 'z']) answers.push((await uploadChunk(owner, arrival.id, id, audioBytes(id))).json().sequence)
    expect(answers).toEqual([0, 1, 2])
  })

  it('pages through the chunk list in sequence order', async () => {
    const owner = await h.member()
    const session = await startRecording(owner)
    for (let index = 0; index < 5; index += 1) await uploadChunk(owner, session.id, `p${index}`, audioBytes(`p${index}`, 64))
    const first = (await owner.get(`/v1/sessions/${session.id}/chunks?limit=3`)).json()
    expect(first.chunks.map((chunk: { sequence: number }) => chunk.sequence)).toEqual([0, 1, 2])
    const second = (await owner.get(`/v1/sessions/${session.id}/chunks?limit=3&cursor=${first.nextCursor}`)).json()
    expect(second.chunks.map((chunk: { sequence: number }) => chunk.sequence)).toEqual([3, 4])
    expect(second.nextCursor).toBeUndefined()
  })

  it('accepts wav, pcm with a rate, webm and ogg, and refuses other types with 415', async () => {
    const owner = await h.member()
    const session = await startRecording(owner)
    const accepted = [
      ['audio/wav', 'audio/wav'], ['audio/x-wav', 'audio/wav'], ['audio/pcm; rate=48000; channels=2', 'audio/pcm;rate=48000;channels=2'],
      ['audio/webm;codecs=opus', 'audio/webm;codecs=opus'], ['audio/ogg', 'audio/ogg'],
    ]
    for (const [index, [sent, stored]] of accepted.entries()) {
      // a WAV chunk is a whole WAV file (its header is checked); the others may be continuations
      const body = stored === 'audio/wav' ? wavOf(audioBytes(`t${index}`)) : audioBytes(`t${index}`)
      const response = await uploadChunk(owner, session.id, `t${index}`, body, { contentType: sent })
      expect(response.statusCode, sent).toBe(200)
      const listed = (await owner.get(`/v1/sessions/${session.id}/chunks`)).json().chunks
      expect(listed.find((chunk: { chunkId: string }) => chunk.chunkId === `t${index}`).contentType).toBe(stored)
    }
    for (const type of ['audio/mpeg', 'application/octet-stream', 'audio/pcm', 'audio/pcm;rate=12', 'audio/pcm;rate=16000;channels=6', 'text/plain']) {
      const response = await uploadChunk(owner, session.id, `bad-${type}`, audioBytes('bad'), { contentType: type })
      expect(response.statusCode, type).toBe(415)
      expect(response.headers['content-type'], type).toMatch(/^application\/problem\+json/)
      expect(response.json().code, type).toBe('unsupported_media_type')
    }
    const json = await owner.request('POST', `/v1/sessions/${session.id}/audio`, { payload: { audio: 'x' }, headers: { 'x-service-chunk-id': 'json' } })
    expect(json.statusCode).toBe(415)
  })

  it('refuses a chunk over 5 MiB with 413, one without X-Service-Chunk-ID with 400, and bad bodies with 400', async () => {
    const owner = await h.member()
    const session = await startRecording(owner)
    const large = await uploadChunk(owner, session.id, 'large', Buffer.alloc(AUDIO_CHUNK_MAX_BYTES + 2))
    expect(large.statusCode).toBe(413)
    expect(large.json().code).toBe('payload_too_large')
    expect((await uploadChunk(owner, session.id, 'limit', Buffer.alloc(AUDIO_CHUNK_MAX_BYTES))).statusCode).toBe(200)

    const missing = await uploadChunk(owner, session.id, undefined, audioBytes('m'))
    expect(missing.statusCode).toBe(400)
    expect(missing.json().code).toBe('missing_header')
    const badId = await uploadChunk(owner, session.id, 'has space', audioBytes('m'))
    expect(badId.json()).toMatchObject({ status: 400, errors: [{ field: 'X-Service-Chunk-ID' }] })
    const badSequence = await owner.request('POST', `/v1/sessions/${session.id}/audio`, {
      payload: audioBytes('m'), headers: { 'content-type': 'audio/wav', 'x-service-chunk-id': 'q', 'x-service-chunk-sequence': '-1' },
    })
    expect(badSequence.json()).toMatchObject({ status: 400, errors: [{ field: 'X-Service-Chunk-Sequence' }] })
    expect((await uploadChunk(owner, session.id, 'empty', Buffer.alloc(0))).statusCode).toBe(400)
    expect((await uploadChunk(owner, session.id, 'odd', Buffer.alloc(3))).json()).toMatchObject({ status: 400, errors: [{ field: 'body' }] })
    expect((await owner.get(`/v1/sessions/${session.id}`)).json().chunkCount).toBe(1)
  })

  it('answers 409 once the session is no longer recording, 404 across workspaces, 403 to others', async () => {
    const owner = await h.member()
    const session = await startRecording(owner)
    const stranger = await h.member()
    expect((await uploadChunk(stranger, session.id, 'x', audioBytes('x'))).statusCode).toBe(404)
    expect((await stranger.get(`/v1/sessions/${session.id}/chunks`)).statusCode).toBe(404)
    const viewer = await joinWorkspace(h, owner.workspaceId, 'view')
    expect((await uploadChunk(viewer, session.id, 'x', audioBytes('x'))).statusCode).toBe(403)
    const colleague = await joinWorkspace(h, owner.workspaceId, 'edit')
    const foreignDevice = await uploadChunk(colleague, session.id, 'x', audioBytes('x'))
    expect(foreignDevice.statusCode).toBe(403)
    expect((await viewer.get(`/v1/sessions/${session.id}/chunks`)).statusCode).toBe(200)

    await uploadChunk(owner, session.id, 'kept', audioBytes('kept'))
    await owner.post(`/v1/sessions/${session.id}/end`)
    const late = await uploadChunk(owner, session.id, 'late', audioBytes('late'))
    expect(late.statusCode).toBe(409)
    expect(late.json()).toMatchObject({ code: 'conflict', state: 'processing' })
    // A retry of a chunk stored before the end is still acknowledged as a duplicate.
    expect((await uploadChunk(owner, session.id, 'kept', audioBytes('kept'))).json().duplicate).toBe(true)
    expect(await blobFiles(session.id)).toHaveLength(1)
  })

  it('never accepts a chunk after end, even when both race', async () => {
    const owner = await h.member()
    const session = await startRecording(owner)
    const uploads = Array.from({ length: 10 }, (_, index) => uploadChunk(owner, session.id, `r${index}`, audioBytes(`r${index}`)))
    const ended = owner.post(`/v1/sessions/${session.id}/end`)
    const answers = await Promise.all(uploads)
    const endedAt = (await ended).json().endedAt as string
    const accepted = answers.filter((answer) => answer.statusCode === 200).map((answer) => answer.json().chunkId)
    expect(answers.every((answer) => answer.statusCode === 200 || answer.statusCode === 409)).toBe(true)
    const stored = await h.database.db.selectFrom('audio_chunks').select(['chunk_id', 'received_at']).where('session_id', '=', session.id).execute()
    expect(stored.map((row) => row.chunk_id).sort()).toEqual(accepted.sort())
    expect(stored.every((row) => row.received_at <= endedAt)).toBe(true)
    expect((await owner.get(`/v1/sessions/${session.id}`)).json().chunkCount).toBe(accepted.length)
  })

  it('sends chunk progress as session.updated at most every few seconds', async () => {
    const owner = await h.member()
    const session = await startRecording(owner)
    for (let index = 0; index < 4; index += 1) await uploadChunk(owner, session.id, `e${index}`, audioBytes(`e${index}`))
    const updates = (await h.app.deps.events.readAfter(session.conversationId, 0)).filter((event) => event.type === 'session.updated')
    expect(updates.map((event) => (event.data as { chunkCount: number }).chunkCount)).toEqual([0, 1])
  })
})
