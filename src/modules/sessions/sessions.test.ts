import { expect, it } from 'vitest'
import { eachDatabase } from '../../../test/harness.ts'
import { seedSegments } from '../transcripts/testing.ts'
import { joinWorkspace, startRecording } from './testing.ts'

eachDatabase('capture sessions', (h) => {
  const eventsOf = async (conversationId: string) => h.app.deps.events.readAfter(conversationId, 0, 1000)

  it('creates a recording session with its conversation, absolute WebSocket URLs and a first session.updated', async () => {
    const owner = await h.member()
    const response = await owner.post('/v1/sessions', { captureMode: 'microphone-and-system-audio' })
    expect(response.statusCode).toBe(200)
    const body = response.json()
    expect(body).toMatchObject({
      id: expect.stringMatching(/^ses_[0-9A-Z]{26}$/), conversationId: expect.stringMatching(/^cnv_[0-9A-Z]{26}$/),
      state: 'recording', captureMode: 'microphone-and-system-audio', title: expect.stringMatching(/^Meeting on /),
      chunkCount: 0, audioBytes: 0, reusedExisting: false,
      websocketURL: `ws://localhost:8080/v1/conversations/${body.conversationId}/events`,
      workWebsocketURL: `ws://localhost:8080/v1/conversations/${body.conversationId}/events?channel=work`,
    })
    expect(body.startedAt).toBe(body.createdAt)
    expect(body).not.toHaveProperty('endedAt')
    const events = await eventsOf(body.conversationId)
    expect(events.map((event) => event.type)).toEqual(['session.updated'])
    expect(events[0]!.data).toMatchObject({ id: body.id, state: 'recording' })
  })

  it('gives an account with a recording session that session back, with reusedExisting and no new record', async () => {
    const owner = await h.member()
    const first = await startRecording(owner, { title: 'Standup' })
    const again = await owner.post('/v1/sessions', { captureMode: 'microphone-and-system-audio' })
    expect(again.json()).toMatchObject({ id: first.id, reusedExisting: true, title: 'Standup', captureMode: 'microphone' })
    expect((await owner.get('/v1/sessions')).json()).toHaveLength(1)
  })

  it('creates exactly one session under concurrent creates', async () => {
    const owner = await h.member()
    const answers = await Promise.all(Array.from({ length: 8 }, () => owner.post('/v1/sessions', { captureMode: 'microphone' })))
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(8).fill(200))
    expect(new Set(answers.map((answer) => answer.json().id)).size).toBe(1)
    expect(answers.filter((answer) => answer.json().reusedExisting === false)).toHaveLength(1)
    const rows = await h.database.db.selectFrom('capture_sessions').select('id').where('account_id', '=', owner.accountId).execute()
    expect(rows).toHaveLength(1)
  })

  it('replays a create with the same Idempotency-Key and refuses the key with another body', async () => {
    const owner = await h.member()
    const key = { 'idempotency-key': `create-${Date.now()}` }
    const first = await owner.post('/v1/sessions', { captureMode: 'microphone' }, key)
    const replay = await owner.post('/v1/sessions', { captureMode: 'microphone' }, key)
    expect(replay.headers['idempotent-replayed']).toBe('true')
    expect(replay.json()).toEqual(first.json())
    const reused = await owner.post('/v1/sessions', { captureMode: 'microphone-and-system-audio' }, key)
    expect(reused.statusCode).toBe(422)
    expect(reused.json().code).toBe('idempotency_key_reused')
  })

  it('starts a new session once the previous one has ended', async () => {
    const owner = await h.member()
    const first = await startRecording(owner)
    expect((await owner.post(`/v1/sessions/${first.id}/end`)).json()).toMatchObject({ state: 'processing', endedAt: expect.any(String) })
    const second = await owner.post('/v1/sessions', { captureMode: 'microphone' })
    expect(second.json()).toMatchObject({ reusedExisting: false, state: 'recording' })
    expect(second.json().id).not.toBe(first.id)
  })

  it('refuses ending twice with 409 carrying the state, and another workspace\'s session with 404', async () => {
    const owner = await h.member()
    const session = await startRecording(owner)
    const stranger = await h.member()
    expect((await stranger.post(`/v1/sessions/${session.id}/end`)).statusCode).toBe(404)
    expect((await stranger.get(`/v1/sessions/${session.id}`)).statusCode).toBe(404)
    expect((await stranger.patch(`/v1/sessions/${session.id}`, { title: 'mine' })).statusCode).toBe(404)
    await owner.post(`/v1/sessions/${session.id}/end`)
    const again = await owner.post(`/v1/sessions/${session.id}/end`)
    expect(again.statusCode).toBe(409)
    expect(again.json()).toMatchObject({ code: 'conflict', state: 'processing' })
  })

  it('lets a view member read but not create, change or end (403)', async () => {
    const owner = await h.member()
    const session = await startRecording(owner)
    const viewer = await joinWorkspace(h, owner.workspaceId, 'view')
    expect((await viewer.get(`/v1/sessions/${session.id}`)).json()).toMatchObject({ id: session.id })
    expect((await viewer.get('/v1/sessions')).json().map((item: { id: string }) => item.id)).toContain(session.id)
    for (const response of [
      await viewer.post('/v1/sessions', { captureMode: 'microphone' }),
      await viewer.patch(`/v1/sessions/${session.id}`, { title: 'x' }),
      await viewer.post(`/v1/sessions/${session.id}/end`),
    ]) {
      expect(response.statusCode).toBe(403)
      expect(response.json().code).toBe('forbidden')
    }
  })

  it('renames, moves to a project and archives, emitting session.updated each time, with an updatedAt guard', async () => {
    const owner = await h.member()
    const session = await startRecording(owner)
    const projectId = (await owner.post('/v1/projects', { name: 'Planning' })).json().id as string
    const renamed = await owner.patch(`/v1/sessions/${session.id}`, { title: '  Planning  ', projectId })
    expect(renamed.json()).toMatchObject({ title: 'Planning', projectId })
    expect(renamed.json().updatedAt > (session.updatedAt as string)).toBe(true)

    const stale = await owner.patch(`/v1/sessions/${session.id}`, { title: 'Stale', expectedUpdatedAt: session.updatedAt })
    expect(stale.statusCode).toBe(409)
    expect(stale.json()).toMatchObject({ code: 'conflict', updatedAt: renamed.json().updatedAt })

    const recording = await owner.patch(`/v1/sessions/${session.id}`, { archived: true })
    expect(recording.statusCode).toBe(409)
    await owner.post(`/v1/sessions/${session.id}/end`)
    const archived = await owner.patch(`/v1/sessions/${session.id}`, { archived: true, projectId: null })
    expect(archived.json()).toMatchObject({ archivedAt: expect.any(String) })
    expect(archived.json()).not.toHaveProperty('projectId')

    const snapshots = (await eventsOf(session.conversationId)).filter((event) => event.type === 'session.updated').map((event) => event.data)
    expect(snapshots.map((data) => [(data as { title: string }).title, (data as { state: string }).state, 'archivedAt' in (data as object)])).toEqual([
      [session.title, 'recording', false], ['Planning', 'recording', false], ['Planning', 'processing', false], ['Planning', 'processing', true],
    ])
    const unchanged = await owner.patch(`/v1/sessions/${session.id}`, { title: 'Planning' })
    expect(unchanged.json().updatedAt).toBe(archived.json().updatedAt)
  })

  it('rejects bad input with 400 naming the field', async () => {
    const owner = await h.member()
    const session = await startRecording(owner)
    const badMode = await owner.post('/v1/sessions', { captureMode: 'video' })
    expect(badMode.statusCode).toBe(400)
    expect(badMode.json().errors[0].field).toBe('captureMode')
    const blank = await owner.patch(`/v1/sessions/${session.id}`, { title: '   ' })
    expect(blank.json()).toMatchObject({ status: 400, errors: [{ field: 'title' }] })
    expect((await owner.patch(`/v1/sessions/${session.id}`, {})).statusCode).toBe(400)
    expect((await owner.get('/v1/sessions?limit=0')).statusCode).toBe(400)
    expect((await owner.get('/v1/sessions?cursor=nonsense')).json().code).toBe('invalid_cursor')
  })

  it('lists newest first with filters and cursor pagination', async () => {
    const owner = await h.member()
    const colleague = await joinWorkspace(h, owner.workspaceId, 'edit')
    const project = (await owner.post('/v1/projects', { name: 'Listed' })).json().id as string
    const made: string[] = []
    for (const [index, person] of [owner, colleague, owner, colleague, owner].entries()) {
      const session = await startRecording(person, index % 2 === 0 ? { projectId: project } : {})
      made.push(session.id)
      await person.post(`/v1/sessions/${session.id}/end`)
    }
    await owner.patch(`/v1/sessions/${made[4]}`, { archived: true })

    const first = await owner.get('/v1/sessions?limit=2')
    expect(first.json().map((item: { id: string }) => item.id)).toEqual([made[3], made[2]])
    const cursor = first.headers['x-next-cursor'] as string
    const second = await owner.get(`/v1/sessions?limit=2&cursor=${cursor}`)
    expect(second.json().map((item: { id: string }) => item.id)).toEqual([made[1], made[0]])
    expect(second.headers['x-next-cursor']).toBeUndefined()

    expect((await owner.get(`/v1/sessions?projectId=${project}`)).json().map((item: { id: string }) => item.id)).toEqual([made[2], made[0]])
    expect((await owner.get('/v1/sessions?archived=true')).json().map((item: { id: string }) => item.id)).toEqual([made[4]])
    expect((await (await h.member()).get('/v1/sessions')).json()).toEqual([])
  })

  it('says how far a session\'s transcript reaches in its lists and reads (a meeting lasted at least that long)', async () => {
    const owner = await h.member()
    const project = (await owner.post('/v1/projects', { name: 'Imports' })).json()
    const imported = await startRecording(owner, { title: 'Imported call', projectId: project.id })
    await seedSegments(h, imported, [{ text: 'We start with the budget.', startMs: 0, endMs: 4000 }, { text: 'And end with hiring.', startMs: 40_000, endMs: 44_000 }])
    expect((await owner.post(`/v1/sessions/${imported.id}/end`, {})).statusCode).toBe(200)
    const silent = await startRecording(owner, { title: 'Nothing said' })
    expect((await owner.post(`/v1/sessions/${silent.id}/end`, {})).statusCode).toBe(200)

    const listed = (await owner.get('/v1/sessions')).json() as { id: string; transcriptEndMs?: number }[]
    expect(listed.find((session) => session.id === imported.id)).toMatchObject({ transcriptEndMs: 44_000 })
    expect(listed.find((session) => session.id === silent.id)).not.toHaveProperty('transcriptEndMs')
    expect((await owner.get(`/v1/sessions/${imported.id}`)).json()).toMatchObject({ transcriptEndMs: 44_000 })
    expect((await owner.get(`/v1/sessions?projectId=${project.id}`)).json()).toEqual([expect.objectContaining({ id: imported.id, transcriptEndMs: 44_000 })])
    expect((await owner.get(`/v1/projects/${project.id}`)).json().sessions).toEqual([expect.objectContaining({ id: imported.id, transcriptEndMs: 44_000 })])
  })
})
