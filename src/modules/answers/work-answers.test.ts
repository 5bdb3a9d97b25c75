// Questions a person asks about the team's work, answered as a person would (fourteenth pass), through
// HTTP on SQLite and PostgreSQL: "who…?" names the person, "what did we decide about…?" reads decisions
// (accepted, or proposed by the meeting's extraction and said to be proposed) and project memory,
// "when is … due?" reads a work object's due date; a work object cites the turns it was made from.
import { expect, it } from 'vitest'
import { eachDatabase } from '../../../test/harness.ts'
import { joinWorkspace, startRecording } from '../sessions/testing.ts'
import { seedSegments, seedSpeaker } from '../transcripts/testing.ts'
import { capture } from '../work/testing.ts'
import { createProposal } from '../work/index.ts'

type Source = { kind: string; id: string; quote: string; status?: string; speaker?: string }
type Answer = { status: string; answer: string; sentences: { text: string; sourceIndexes: number[] }[]; sources: Source[] }

eachDatabase('answers about work', (h) => {
  const ask = async (member: { post: (url: string, body: object) => Promise<{ statusCode: number; body: string; json(): unknown }> }, query: string) => {
    const response = await member.post('/v1/search/answer', { query })
    expect(response.statusCode, response.body).toBe(200)
    return response.json() as Answer
  }

  it('"who…?" answered by "I\'ll take it" names its speaker; "Speaker N" is not a name', async () => {
    const owner = await h.member()
    const session = await startRecording(owner, { title: 'Vendor review' })
    await seedSpeaker(h, session, 'spk_1')
    await seedSpeaker(h, session, 'spk_2')
    const [, taken] = await seedSegments(h, session, [
      { text: 'Who can take the vendor contract renewal this quarter?', speakerId: 'spk_1' },
      { text: "I'll take it.", speakerId: 'spk_2' },
      { text: 'The office plants need watering.', speakerId: 'spk_1' },
    ])
    const unnamed = await ask(owner, 'Who is taking the vendor contract renewal?')
    expect(unnamed.status).toBe('answered')
    expect(unnamed.sentences[0]!.text).toBe("I'll take it.")
    expect(unnamed.sources[0]).toMatchObject({ kind: 'segment', id: taken, speaker: 'Speaker 2' })

    expect((await owner.patch(`/v1/sessions/${session.id}/speakers/spk_2`, { name: 'Dana Li' })).statusCode).toBe(200)
    const named = await ask(owner, 'Who is taking the vendor contract renewal?')
    expect(named.answer.startsWith("Dana Li: I'll take it.")).toBe(true)
    expect(named.sentences[0]).toEqual({ text: "Dana Li: I'll take it.", sourceIndexes: [0] })
    expect(named.sources[0]).toMatchObject({ kind: 'segment', id: taken, quote: "I'll take it.", speaker: 'Dana Li' })
    // Not a "who" question: the turn is quoted as said.
    expect((await ask(owner, 'What about the vendor contract renewal this quarter?')).answer).not.toContain('Dana Li:')
  })

  it('"who…?" answered by a work object names who takes it: the member responsible, else the name the engine heard', async () => {
    const owner = await h.member()
    expect((await owner.patch('/v1/account/profile', { name: 'Priya Raman' })).statusCode).toBe(200)
    const session = await startRecording(owner, { title: 'Audit prep' })
    const ids = await seedSegments(h, session, [{ text: 'The auditor wants the access review evidence in a shared folder.' }])
    const object = await capture(owner, session.id, { kind: 'action', title: 'Collect the access review evidence for the auditor', sourceSegmentIds: ids })
    expect((await owner.post(`/v1/workobjects/${object.id}/assignment`, { action: 'assign', userId: owner.accountId })).statusCode).toBe(200)
    const assigned = await ask(owner, 'Who collects the access review evidence for the auditor?')
    expect(assigned.status).toBe('answered')
    expect(assigned.answer).toContain('Collect the access review evidence for the auditor (owner Priya Raman)')
    expect(assigned.sources[0]).toMatchObject({ kind: 'work-object', id: object.id, quote: 'Collect the access review evidence for the auditor' })

    const other = await h.member()
    const meeting = await startRecording(other, { title: '安卓发布评审' })
    const heard = await seedSegments(h, meeting, [{ text: '崩溃率的报告下周三之前整理出来，张伟来负责。', language: 'zh-Hans' }])
    await createProposal(h.app.deps, h.database.db, { sessionId: meeting.id, kind: 'action', title: '整理崩溃率报告', sourceSegmentIds: heard, confidence: 0.8, ownerHint: '张伟' })
    const chinese = await ask(other, '谁负责整理崩溃率报告？')
    expect(chinese.status).toBe('answered')
    expect(chinese.answer).toContain('张伟')
  })

  it('"what did we decide about…?" reads decisions, accepted or proposed (and says which), citing the turns they come from', async () => {
    const owner = await h.member()
    const viewer = await joinWorkspace(h, owner.workspaceId, 'view')
    const session = await startRecording(owner, { title: 'Event store design' })
    const [proposal, , settled] = await seedSegments(h, session, [
      { text: 'For the event store I would start with Postgres, it is what we run already.' },
      { text: 'Throughput will be the problem within a year.' },
      { text: 'Fine, Kafka then.' },
    ])
    const decision = await createProposal(h.app.deps, h.database.db, {
      sessionId: session.id, kind: 'decision', title: 'Use Kafka for the event store', sourceSegmentIds: [proposal!, settled!], confidence: 0.8,
    })
    const body = await ask(viewer, 'What did we decide about the event store?')
    expect(body.status).toBe('answered')
    expect(body.answer).toContain('Use Kafka for the event store')
    const object = body.sources.find((source) => source.kind === 'work-object')
    expect(object).toMatchObject({ id: decision.id, status: 'proposed', quote: 'Use Kafka for the event store' })
    // It cites both turns it joins — the proposal and the turn that settles it — with their words.
    expect(body.sources).toEqual(expect.arrayContaining([
      expect.objectContaining({ kind: 'segment', id: proposal, quote: 'For the event store I would start with Postgres, it is what we run already.' }),
      expect.objectContaining({ kind: 'segment', id: settled, quote: 'Fine, Kafka then.' }),
    ]))
    const sentence = body.sentences.find((item) => item.text.includes('Use Kafka'))!
    expect(sentence.sourceIndexes.map((index) => body.sources[index]!.id)).toEqual(expect.arrayContaining([decision.id, proposal, settled]))

    // Accepted, it is no longer marked proposed; rejected, it is no answer.
    expect((await owner.patch(`/v1/workobjects/${decision.id}/proposal`, { decision: 'accept', expectedRevisionId: decision.revisionId })).statusCode).toBe(200)
    expect((await ask(viewer, 'What did we decide about the event store?')).sources.find((source) => source.kind === 'work-object')).not.toHaveProperty('status')
    const other = await h.member()
    const meeting = await startRecording(other, { title: 'Lunch' })
    const said = await seedSegments(h, meeting, [{ text: 'Maybe the team lunch moves to the Thai place on Fridays.' }])
    const rejected = await createProposal(h.app.deps, h.database.db, { sessionId: meeting.id, kind: 'decision', title: 'Team lunch moves to the Thai place', sourceSegmentIds: said, confidence: 0.6 })
    expect((await other.patch(`/v1/workobjects/${rejected.id}/proposal`, { decision: 'reject', expectedRevisionId: rejected.revisionId })).statusCode).toBe(200)
    expect((await ask(other, 'What did we decide about the team lunch?')).sources.map((source) => source.id)).not.toContain(rejected.id)
  })

  it('"what did we decide about…?" in a project answers from its memory before the raw turns', async () => {
    const owner = await h.member()
    const project = (await owner.post('/v1/projects', { name: 'Website relaunch' })).json()
    const session = await startRecording(owner, { projectId: project.id, title: 'Launch planning' })
    const ids = await seedSegments(h, session, [
      { text: 'Two venues came back for the launch party, the rooftop bar and the harbour hall.' },
      { text: 'The harbour hall is cheaper but far from the office.' },
      { text: 'Let us book the rooftop bar then.' },
    ])
    const created = await owner.post(`/v1/sessions/${session.id}/workobjects`, { kind: 'decision', title: 'Launch party at the rooftop bar', sourceSegmentIds: [ids[0], ids[2]] })
    expect(created.statusCode, created.body).toBe(200)
    await owner.post(`/v1/sessions/${session.id}/end`)
    await h.app.deps.jobs.drain()
    const entry = (await owner.get(`/v1/projects/${project.id}/memory`)).json().entries[0]
    expect(entry).toMatchObject({ statement: 'Launch party at the rooftop bar', status: 'current' })
    const body = await ask(owner, 'What did we decide about the launch party?')
    expect(body.status).toBe('answered')
    expect(body.sentences[0]!.text).toContain('Launch party at the rooftop bar')
    expect(['memory-entry', 'work-object']).toContain(body.sources[body.sentences[0]!.sourceIndexes[0]!]!.kind)
    expect(body.sources).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'memory-entry', id: entry.id, status: 'current' })]))
  })

  it('"when is … due?" answers with the work object\'s due date', async () => {
    const owner = await h.member()
    const session = await startRecording(owner, { title: 'Vendor sync' })
    const ids = await seedSegments(h, session, [
      { text: 'We still need the signed vendor contract back from legal.' },
      { text: 'Marco will chase legal for it.' },
    ])
    await createProposal(h.app.deps, h.database.db, { sessionId: session.id, kind: 'action', title: 'Return the signed vendor contract', sourceSegmentIds: ids, confidence: 0.8, ownerHint: 'Marco', dueDate: '2026-12-04' })
    const body = await ask(owner, 'When is the signed vendor contract due?')
    expect(body.status).toBe('answered')
    expect(body.answer).toContain('Return the signed vendor contract (owner Marco; due Friday 4 December 2026)')
    expect(body.sources[0]).toMatchObject({ kind: 'work-object', quote: 'Return the signed vendor contract', status: 'proposed' })
  })
})
