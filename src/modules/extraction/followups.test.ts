import { expect, it } from 'vitest'
import { eachDatabase, type Harness, type Member } from '../../../test/harness.ts'
import { joinWorkspace, startRecording } from '../sessions/testing.ts'
import { seedSegments } from '../transcripts/testing.ts'
import { eventsOf, notificationsOf } from '../work/testing.ts'

// Raises a clarify item for each kind the engine knows, and a relation of each type.
const MEETING = [
  { text: 'Someone needs to update the architecture diagram.', speakerId: 'spk_1' },
  { text: "Let's use Postgres for the event store.", speakerId: 'spk_1' },
  { text: 'Postgres topped out at twelve thousand inserts per second in our load test.', speakerId: 'spk_2' },
  { text: "Actually, let's go with MySQL for the event store instead.", speakerId: 'spk_1' },
  { text: "I'll write the onboarding checklist for new support hires.", speakerId: 'spk_2' },
  { text: "I'll review the onboarding checklist for support.", speakerId: 'spk_3' },
]

type Detail = {
  workSet: { id: string; revision: number; takeoverState: string }
  workObjects: { id: string; kind: string; title: string; ownerId?: string }[]
  clarifications: { id: string; kind: string; status: string; workObjectIds: string[]; answer?: string }[]
  relations: { id: string; type: string; status: string; fromWorkObjectId: string; toWorkObjectId: string }[]
  takeoverState: string
  takeoverSummary?: { headline: string; blocks: { type: string; items: { workObjectId?: string }[] }[] }
}

async function endedMeeting(h: Harness, owner: Member) {
  const session = await startRecording(owner)
  const ids = await seedSegments(h, session, MEETING)
  await owner.post(`/v1/sessions/${session.id}/end`)
  await h.app.deps.jobs.drain()
  const sets = (await owner.get(`/v1/conversations/${session.conversationId}/workset`)).json().workSets
  const read = async () => (await owner.get(`/v1/worksets/${sets[0].id}`)).json() as Detail
  return { session, ids, read }
}

eachDatabase('clarify items and relations', (h) => {
  it('stores what the engine raised, with realtime events, and settles clarify items through PATCH …/workset', async () => {
    const owner = await h.member()
    const dana = await joinWorkspace(h, owner.workspaceId, 'edit')
    await h.database.db.updateTable('auth_user').set({ name: 'Dana Scott' }).where('id', '=', dana.accountId).execute()
    const { session, ids, read } = await endedMeeting(h, owner)
    const detail = await read()
    const kinds = detail.clarifications.map((clarification) => clarification.kind).sort()
    expect(kinds).toEqual(expect.arrayContaining(['contradiction', 'missing-owner']))
    expect(detail.relations.map((relation) => relation.type)).toEqual(expect.arrayContaining(['duplicate-of', 'supersedes']))
    for (const relation of detail.relations) {
      expect(detail.workObjects.map((object) => object.id)).toEqual(expect.arrayContaining([relation.fromWorkObjectId, relation.toWorkObjectId]))
    }
    const events = await eventsOf(h, session.conversationId)
    expect(events.filter((event) => event.type === 'workset.clarification').map((event) => event.data.action)).toContain('raised')
    expect(events.find((event) => event.type === 'workset.relation')).toMatchObject({ channel: 'work', data: { action: 'proposed' } })

    const missing = detail.clarifications.find((clarification) => clarification.kind === 'missing-owner')!
    const diagram = detail.workObjects.find((object) => object.id === missing.workObjectIds[0])!
    expect(diagram.title.toLowerCase()).toContain('architecture diagram')
    expect(diagram.ownerId).toBeUndefined()
    const patch = (body: Record<string, unknown>, who = owner) => who.request('PATCH', `/v1/sessions/${session.id}/workset`, { payload: body })

    // Validation: a blank answer cannot confirm; an unknown clarify item is a 404; a body of no variant is a 400.
    expect((await patch({ action: 'clarify.resolve', clarifyId: missing.id, resolution: 'confirmed', answer: '  ' })).json()).toMatchObject({ status: 400, code: 'validation_failed' })
    expect((await patch({ action: 'clarify.resolve', clarifyId: 'clr_nope', resolution: 'dismissed', answer: '' })).statusCode).toBe(404)
    // A body aimed at one variant hears about that variant only.
    expect((await patch({ action: 'clarify.resolve', clarifyId: missing.id })).json().errors.map((error: { field: string }) => error.field).sort()).toEqual(['answer', 'resolution'])
    expect((await patch({ action: 'relation.confirm', relationId: detail.relations[0]!.id })).statusCode).toBe(400)
    const seq = events.at(-1)!.seq

    const body = { action: 'clarify.resolve', clarifyId: missing.id, resolution: 'confirmed', answer: 'Dana Scott', idempotencyKey: 'resolve-diagram-1' }
    const resolved = await patch(body)
    expect(resolved.statusCode).toBe(200)
    const answer = resolved.json()
    expect(answer).toMatchObject({ workSetId: detail.workSet.id, sessionId: session.id, replayed: false, takeoverState: 'ready', clarification: { id: missing.id, status: 'confirmed', answer: 'Dana Scott', resolvedById: owner.accountId } })
    expect(answer.revision).toBeGreaterThan(detail.workSet.revision)
    expect((await owner.get(`/v1/workobjects/${diagram.id}`)).json().ownerId).toBe(dana.accountId)
    expect((await notificationsOf(h, dana.accountId)).map((notification) => notification.kind)).toContain('workobject.assigned')
    const later = await eventsOf(h, session.conversationId, seq)
    expect(later.map((event) => event.type)).toEqual(expect.arrayContaining(['workobject.assigned', 'workset.clarification', 'workset.updated']))

    // The same key replays the first answer; another body under it is refused; settling it otherwise is a 409.
    const replay = await patch(body)
    expect(replay.headers['idempotent-replayed']).toBe('true')
    expect(replay.json()).toEqual({ ...answer, replayed: true })
    expect((await eventsOf(h, session.conversationId, seq)).length).toBe(later.length)
    expect((await patch({ ...body, answer: 'Someone else' })).json()).toMatchObject({ status: 422, code: 'idempotency_key_reused' })
    expect((await patch({ ...body, resolution: 'dismissed', idempotencyKey: 'another' })).json()).toMatchObject({ status: 409, code: 'transition_not_allowed' })

    // A view member reads but cannot settle; another workspace sees nothing.
    const viewer = await joinWorkspace(h, owner.workspaceId, 'view')
    expect((await viewer.get(`/v1/worksets/${detail.workSet.id}`)).statusCode).toBe(200)
    expect((await patch({ action: 'takeover.refresh', idempotencyKey: 'v1' }, viewer)).statusCode).toBe(403)
    expect((await patch({ action: 'takeover.refresh', idempotencyKey: 'o1' }, await h.member())).statusCode).toBe(404)
    expect(ids).toHaveLength(MEETING.length)
  })

  it('confirming a relation applies it: a duplicate proposal is withdrawn, a superseding decision settles the contradiction', async () => {
    const owner = await h.member()
    const { session, read } = await endedMeeting(h, owner)
    const detail = await read()
    const patch = (body: Record<string, unknown>) => owner.request('PATCH', `/v1/sessions/${session.id}/workset`, { payload: body })
    const duplicate = detail.relations.find((relation) => relation.type === 'duplicate-of')!
    const supersedes = detail.relations.find((relation) => relation.type === 'supersedes')!

    const confirmed = (await patch({ action: 'relation.confirm', relationId: duplicate.id, idempotencyKey: 'dup-1' })).json()
    expect(confirmed.relation).toMatchObject({ id: duplicate.id, status: 'confirmed', decidedById: owner.accountId })
    const after = await read()
    expect(after.workObjects.map((object) => object.id)).not.toContain(duplicate.fromWorkObjectId)
    expect(after.workObjects.map((object) => object.id)).toContain(duplicate.toWorkObjectId)
    // Relations to an object no longer listed are left out with it.
    expect(after.relations.map((relation) => relation.id)).not.toContain(duplicate.id)

    await patch({ action: 'relation.confirm', relationId: supersedes.id, idempotencyKey: 'sup-1' })
    const contradiction = (await read()).clarifications.find((clarification) => clarification.kind === 'contradiction')!
    expect(contradiction).toMatchObject({ status: 'confirmed' })
    expect(contradiction.answer).toMatch(/MySQL/i)
    expect((await patch({ action: 'relation.reject', relationId: supersedes.id, idempotencyKey: 'sup-2' })).json()).toMatchObject({ status: 409, code: 'transition_not_allowed' })
    // Deciding it the same way again changes nothing and answers 200.
    expect((await patch({ action: 'relation.confirm', relationId: supersedes.id, idempotencyKey: 'sup-3' })).statusCode).toBe(200)
  })

  it('applies a repeated key once and settles a clarify item once under concurrency', async () => {
    const owner = await h.member()
    const { session, read } = await endedMeeting(h, owner)
    const detail = await read()
    const patch = (body: Record<string, unknown>) => owner.request('PATCH', `/v1/sessions/${session.id}/workset`, { payload: body })
    const relation = detail.relations[0]!
    const before = (await eventsOf(h, session.conversationId)).at(-1)!.seq
    const same = { action: 'relation.reject', relationId: relation.id, idempotencyKey: 'twice-at-once' }
    const answers = await Promise.all([patch(same), patch(same), patch(same)])
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200])
    expect(answers.filter((answer) => answer.json().replayed === false)).toHaveLength(1)
    const decided = (await eventsOf(h, session.conversationId, before)).filter((event) => event.type === 'workset.relation')
    expect(decided).toHaveLength(1)

    const clarify = detail.clarifications.find((clarification) => clarification.status === 'open')!
    const racing = await Promise.all([
      patch({ action: 'clarify.resolve', clarifyId: clarify.id, resolution: 'dismissed', answer: '', idempotencyKey: 'a' }),
      patch({ action: 'clarify.resolve', clarifyId: clarify.id, resolution: 'confirmed', answer: 'It is fine.', idempotencyKey: 'b' }),
    ])
    expect(racing.map((answer) => answer.statusCode).sort()).toEqual([200, 409])
  })
})
