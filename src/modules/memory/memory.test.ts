import { expect, it } from 'vitest'
import { eachDatabase, type Member } from '../../../test/harness.ts'
import { joinWorkspace, startRecording } from '../sessions/testing.ts'
import { seedSegments } from '../transcripts/testing.ts'

type Harness = Parameters<Parameters<typeof eachDatabase>[1]>[0]

/** A meeting of the project that decides one thing: its session, segment ids and the decision's id. */
async function meeting(h: Harness, owner: Member, projectId: string, title: string, lines: string[], decision: string) {
  const session = await startRecording(owner, { projectId, title })
  const segmentIds = await seedSegments(h, session, lines.map((text) => ({ text })))
  const created = await owner.post(`/v1/sessions/${session.id}/workobjects`, { kind: 'decision', title: decision, sourceSegmentIds: [segmentIds[1]] })
  expect(created.statusCode, created.body).toBe(200)
  await owner.post(`/v1/sessions/${session.id}/end`)
  return { session, segmentIds, workObjectId: created.json().id as string }
}

eachDatabase('project memory', (h) => {
  it('two meetings decide contradicting things: memory shows the conflict, resolving it leaves one current entry, an answer cites it', async () => {
    const owner = await h.member()
    const viewer = await joinWorkspace(h, owner.workspaceId, 'view')
    const project = (await owner.post('/v1/projects', { name: 'Website relaunch' })).json()
    const first = await meeting(h, owner, project.id, 'Kickoff', [
      'Welcome everyone to the kickoff.', 'We decided the website relaunch date is March 3.', 'Marketing will prepare the announcement.',
    ], 'Website relaunch date is March 3')
    const second = await meeting(h, owner, project.id, 'Steering', [
      'Quick update from engineering.', 'We decided the website relaunch date is April 14.', 'Legal needs the privacy page first.',
    ], 'Website relaunch date is April 14')
    await h.app.deps.jobs.drain()

    const memory = await viewer.get(`/v1/projects/${project.id}/memory`)
    expect(memory.statusCode, memory.body).toBe(200)
    const body = memory.json()
    expect(body.projectId).toBe(project.id)
    expect(body.lastRefreshedAt).toEqual(expect.any(String))
    expect(body.entries).toHaveLength(2)
    expect(body.entries.map((entry: { status: string }) => entry.status)).toEqual(['in-conflict', 'in-conflict'])
    expect(body.conflicts).toHaveLength(1)
    const conflict = body.conflicts[0]
    expect(conflict.status).toBe('open')
    expect(conflict.sides.map((side: { statement: string }) => side.statement)).toEqual(['Website relaunch date is March 3', 'Website relaunch date is April 14'])
    expect(conflict.sides[0].sources).toEqual(expect.arrayContaining([
      expect.objectContaining({ kind: 'segment', id: first.segmentIds[1], sessionId: first.session.id, quote: 'We decided the website relaunch date is March 3.' }),
      expect.objectContaining({ kind: 'work-object', id: first.workObjectId }),
    ]))
    expect(conflict.sides[1].sources).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'segment', id: second.segmentIds[1] })]))
    const later = conflict.sides[1].entryId

    // Viewers read; they do not settle. Bad bodies are 400.
    const url = `/v1/projects/${project.id}/memory/conflicts/${conflict.id}/resolve`
    expect((await viewer.post(url, { resolution: 'keep-one', keepEntryId: later })).statusCode).toBe(403)
    expect((await owner.post(url, { resolution: 'keep-one' })).statusCode).toBe(400)
    expect((await owner.post(url, { resolution: 'keep-one', keepEntryId: 'mem_other' })).statusCode).toBe(400)
    expect((await owner.post(url, { resolution: 'keep-both' })).statusCode).toBe(400)
    expect((await owner.post(url, { resolution: 'merge' })).statusCode).toBe(400)

    // Two people settle it at once: one wins, the other gets 409 with the conflict as it is.
    const [a, b] = await Promise.all([1, 2].map(() => owner.post(url, { resolution: 'keep-one', keepEntryId: later })))
    expect([a!.statusCode, b!.statusCode].sort()).toEqual([200, 409])
    const loser = a!.statusCode === 409 ? a! : b!
    expect(loser.json()).toMatchObject({ code: 'memory_conflict_settled', conflict: { id: conflict.id, status: 'resolved' } })
    const winner = a!.statusCode === 200 ? a! : b!
    const resolved = winner.json()
    expect(resolved.conflict).toMatchObject({ status: 'resolved', resolution: 'keep-one', keptEntryId: later })
    const after = (await owner.get(`/v1/projects/${project.id}/memory`)).json()
    const current = after.entries.filter((entry: { status: string }) => entry.status === 'current')
    expect(current).toHaveLength(1)
    expect(current[0]).toMatchObject({ id: later, statement: 'Website relaunch date is April 14' })
    const superseded = after.entries.find((entry: { status: string }) => entry.status === 'superseded')
    expect(superseded).toMatchObject({ statement: 'Website relaunch date is March 3', supersededById: later, validTo: expect.any(String) })
    expect((await owner.post(url, { resolution: 'dismiss' })).statusCode).toBe(409)

    // The realtime channel of each meeting heard of it.
    const events = await h.app.deps.events.readAfter(first.session.conversationId, 0)
    expect(events.map((event) => event.type)).toContain('memory.conflict_resolved')

    const answer = await viewer.post('/v1/search/answer', { query: 'When is the website relaunch date?' })
    expect(answer.statusCode, answer.body).toBe(200)
    const answered = answer.json()
    expect(answered).toMatchObject({ status: 'answered', generatedBy: 'extractive' })
    expect(answered.answer).toContain('April 14')
    expect(answered.answer).not.toContain('March 3')
    expect(answered.sources).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'memory-entry', id: later, status: 'current' })]))
    for (const sentence of answered.sentences) expect(sentence.sourceIndexes.length).toBeGreaterThan(0)
  })

  it('a later decision that says it replaces the earlier one supersedes it without a conflict; outcomes follow the latest figure', async () => {
    const owner = await h.member()
    const project = (await owner.post('/v1/projects', { name: 'Pricing' })).json()
    await meeting(h, owner, project.id, 'Pricing one', ['Hello.', 'Annual plan discount is 10 percent.'], 'Annual plan discount is 10 percent')
    await meeting(h, owner, project.id, 'Pricing two', ['Hi.', 'Instead the annual plan discount is 15 percent.'], 'Instead, the annual plan discount is 15 percent')
    const body = (await owner.get(`/v1/projects/${project.id}/memory`)).json()
    expect(body.conflicts).toEqual([])
    expect(body.entries.map((entry: { status: string }) => entry.status)).toEqual(['superseded', 'current'])
  })

  it('keeps both sides with a note, or dismisses a conflict; a later refresh keeps what a person settled', async () => {
    const owner = await h.member()
    const project = (await owner.post('/v1/projects', { name: 'Regions' })).json()
    await meeting(h, owner, project.id, 'EU', ['Hi.', 'Support hours for Europe are 8 to 18.'], 'Support hours are 8 to 18')
    await meeting(h, owner, project.id, 'US', ['Hi.', 'Support hours for America are 9 to 17.'], 'Support hours are 9 to 17')
    const conflict = (await owner.get(`/v1/projects/${project.id}/memory`)).json().conflicts[0]
    const kept = await owner.post(`/v1/projects/${project.id}/memory/conflicts/${conflict.id}/resolve`, { resolution: 'keep-both', note: 'Different regions.' })
    expect(kept.statusCode, kept.body).toBe(200)
    expect(kept.json().conflict).toMatchObject({ status: 'resolved', resolution: 'keep-both', note: 'Different regions.' })
    const both = kept.json().memory.entries
    expect(both.map((entry: { status: string; note?: string }) => [entry.status, entry.note])).toEqual([['current', 'Different regions.'], ['current', 'Different regions.']])

    await meeting(h, owner, project.id, 'Again', ['Hi.', 'Support hours are 7 to 19 from now on.'], 'Support hours are 7 to 19')
    const third = (await owner.get(`/v1/projects/${project.id}/memory`)).json()
    const open = third.conflicts.filter((row: { status: string }) => row.status === 'open')
    expect(open.length).toBeGreaterThan(0)
    for (const row of open) {
      expect((await owner.post(`/v1/projects/${project.id}/memory/conflicts/${row.id}/resolve`, { resolution: 'dismiss' })).json().conflict.status).toBe('dismissed')
    }
    const settled = (await owner.get(`/v1/projects/${project.id}/memory`)).json()
    expect(settled.conflicts.filter((row: { status: string }) => row.status === 'open')).toEqual([])
    expect(settled.conflicts.find((row: { id: string }) => row.id === conflict.id)).toMatchObject({ status: 'resolved', resolution: 'keep-both' })
  })

  it('answers 404 across workspaces and 401 without a session', async () => {
    const owner = await h.member()
    const stranger = await h.member()
    const project = (await owner.post('/v1/projects', { name: 'Mine' })).json()
    expect((await stranger.get(`/v1/projects/${project.id}/memory`)).statusCode).toBe(404)
    expect((await stranger.post(`/v1/projects/${project.id}/memory/conflicts/mcf_x/resolve`, { resolution: 'dismiss' })).statusCode).toBe(404)
    expect((await owner.post(`/v1/projects/${project.id}/memory/conflicts/mcf_x/resolve`, { resolution: 'dismiss' })).statusCode).toBe(404)
    expect((await h.anonymous.get(`/v1/projects/${project.id}/memory`)).statusCode).toBe(401)
    const empty = (await owner.get(`/v1/projects/${project.id}/memory`)).json()
    expect(empty).toMatchObject({ projectId: project.id, entries: [], conflicts: [], codebases: [] })
  })
})
