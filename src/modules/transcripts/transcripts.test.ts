import type { AddressInfo } from 'node:net'
import { beforeAll, expect, it } from 'vitest'
import { eachDatabase } from '../../../test/harness.ts'
import { connectSocket } from '../../../test/ws-client.ts'
import { joinWorkspace, startRecording } from '../sessions/testing.ts'
import { seedSegments } from './testing.ts'

eachDatabase('transcripts', (h) => {
  let base = ''
  beforeAll(async () => {
    await h.app.listen({ port: 0, host: '127.0.0.1' })
    base = `ws://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`
  })

  it('says which engine transcribes: client-side only here, in the snapshot and in /healthz', async () => {
    const owner = await h.member()
    expect((await startRecording(owner)).transcriptionEngine).toBe('client')
    expect((await h.anonymous.get('/healthz')).json().speech).toEqual({ engine: 'client' })
  })

  it('stores client segments pushed over the socket as finals, once per id, and refuses bad ones and view members', async () => {
    const owner = await h.member()
    const session = await startRecording(owner)
    const url = `${base}/v1/conversations/${session.conversationId}/events`
    const socket = connectSocket(url, { cookie: owner.cookie! })
    await socket.waitFor((message) => message.type === 'hello')
    const segment = { id: 'local-1', text: 'We ship on Friday.', startMs: 1200, endMs: 2900, speakerId: 'me', language: 'en' }
    socket.send({ type: 'transcript.segment', id: 'm1', data: segment })
    const final = await socket.waitFor((message) => message.type === 'transcript.final')
    expect(final.data).toMatchObject({ text: 'We ship on Friday.', startMs: 1200, endMs: 2900, speakerId: 'me', status: 'final', source: 'client' })
    socket.send({ type: 'transcript.segment', id: 'm2', data: segment })
    socket.send({ type: 'transcript.segment', id: 'bad', data: { text: '', startMs: 0, endMs: 1 } })
    expect((await socket.waitFor((message) => message.type === 'error' && message.data.replyTo === 'bad')).data.code).toBe('invalid_message')
    socket.send({ type: 'transcript.segment', id: 'backwards', data: { text: 'x', startMs: 500, endMs: 100 } })
    expect((await socket.waitFor((message) => message.type === 'error' && message.data.replyTo === 'backwards')).data.code).toBe('invalid_message')

    const viewer = await joinWorkspace(h, owner.workspaceId, 'view')
    const watching = connectSocket(url, { cookie: viewer.cookie! })
    await watching.waitFor((message) => message.type === 'hello')
    watching.send({ type: 'transcript.segment', id: 'v', data: { text: 'sneaky', startMs: 0, endMs: 10 } })
    expect((await watching.waitFor((message) => message.type === 'error' && message.data.replyTo === 'v')).data.code).toBe('forbidden')

    const transcript = (await viewer.get(`/v1/sessions/${session.id}/transcript`)).json()
    expect(transcript.segments.map((row: { text: string }) => row.text)).toEqual(['We ship on Friday.'])
    expect(socket.messages.filter((message) => message.type === 'transcript.final')).toHaveLength(1)
    await socket.close()
    await watching.close()
  })

  it('pages the transcript in time order, filters partials, and hides other workspaces', async () => {
    const owner = await h.member()
    const session = await startRecording(owner)
    const ids = await seedSegments(h, session, Array.from({ length: 5 }, (_, index) => ({ text: `line ${index}` })))
    await h.database.db.updateTable('transcript_segments').set({ status: 'partial' }).where('id', '=', ids[4]!).execute()
    const first = (await owner.get(`/v1/sessions/${session.id}/transcript?limit=2`)).json()
    expect(first.segments.map((row: { text: string }) => row.text)).toEqual(['line 0', 'line 1'])
    const second = (await owner.get(`/v1/sessions/${session.id}/transcript?limit=10&cursor=${first.nextCursor}`)).json()
    expect(second.segments.map((row: { text: string }) => row.text)).toEqual(['line 2', 'line 3', 'line 4'])
    expect((await owner.get(`/v1/sessions/${session.id}/transcript?status=final`)).json().segments).toHaveLength(4)
    expect((await owner.get(`/v1/sessions/${session.id}/transcript?cursor=garbage`)).statusCode).toBe(400)
    expect((await (await h.member()).get(`/v1/sessions/${session.id}/transcript`)).statusCode).toBe(404)
  })

  it('retries a failed session: back to processing, then ready; 409 for any other state', async () => {
    const owner = await h.member()
    const session = await startRecording(owner)
    expect((await owner.post(`/v1/sessions/${session.id}/retry`)).statusCode).toBe(409)
    await owner.post(`/v1/sessions/${session.id}/end`)
    await h.database.db.updateTable('capture_sessions').set({ state: 'failed', failure_reason: 'engine down' }).where('id', '=', session.id).execute()
    await h.database.db.updateTable('jobs').set({ state: 'dead' }).where('dedupe_key', '=', session.id).execute()
    const viewer = await joinWorkspace(h, owner.workspaceId, 'view')
    expect((await viewer.post(`/v1/sessions/${session.id}/retry`)).statusCode).toBe(403)
    const retried = await owner.post(`/v1/sessions/${session.id}/retry`)
    expect(retried.statusCode).toBe(200)
    expect(retried.json()).toMatchObject({ state: 'processing' })
    expect(retried.json()).not.toHaveProperty('failureReason')
    await h.app.deps.jobs.drain()
    expect((await owner.get(`/v1/sessions/${session.id}`)).json().state).toBe('ready')
  })
})
