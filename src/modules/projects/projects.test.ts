import { expect, it } from 'vitest'
import { eachDatabase, type Member } from '../../../test/harness.ts'
import { inviteAndJoin } from '../workspace/testing.ts'

eachDatabase('projects', (h) => {
  const create = (member: Member, body: Record<string, unknown>, headers?: Record<string, string>) =>
    member.post('/v1/projects', body, headers)

  it('creates a project with trimmed, canonical fields; the creator is its first member', async () => {
    const owner = await h.member()
    const response = await create(owner, {
      name: '  Website relaunch ', objective: 'Ship it', description: 'All of it', defaultLanguage: 'zh-hans', timezone: 'Europe/Berlin',
    })
    expect(response.statusCode).toBe(200)
    const project = response.json()
    expect(project).toEqual({
      id: expect.stringMatching(/^prj_[0-9A-Z]{26}$/), workspaceId: owner.workspaceId, name: 'Website relaunch',
      objective: 'Ship it', description: 'All of it', defaultLanguage: 'zh-Hans', timezone: 'Europe/Berlin',
      status: 'active', createdBy: owner.accountId, createdAt: expect.any(String), updatedAt: project.createdAt,
    })
    const detail = await owner.get(`/v1/projects/${project.id}`)
    expect(detail.statusCode).toBe(200)
    expect(detail.json()).toEqual({ project, sessions: [] })
    const members = (await owner.get(`/v1/projects/${project.id}/members`)).json()
    expect(members).toEqual([expect.objectContaining({ accountId: owner.accountId, primaryRole: 'other', secondaryRoles: [] })])
  })

  it('rejects a blank name, a bad language tag and an unknown time zone with 400 naming the field', async () => {
    const owner = await h.member()
    const cases: [Record<string, unknown>, string][] = [
      [{ name: '   ' }, 'name'],
      [{ name: '' }, 'name'],
      [{}, 'name'],
      [{ name: 'x', defaultLanguage: 'not a tag!' }, 'defaultLanguage'],
      [{ name: 'x', timezone: 'Mars/Olympus' }, 'timezone'],
      [{ name: 'x', colour: 'red' }, 'colour'],
    ]
    for (const [body, field] of cases) {
      const response = await create(owner, body)
      expect(response.statusCode, JSON.stringify(body)).toBe(400)
      expect(response.json().code).toBe('validation_failed')
      expect(response.json().errors.map((error: { field: string }) => error.field), JSON.stringify(body)).toContain(field)
    }
    const project = (await create(owner, { name: 'Valid' })).json()
    for (const [body, field] of [[{ name: ' ' }, 'name'], [{ timezone: 'Nowhere/Town' }, 'timezone'], [{ defaultLanguage: '12' }, 'defaultLanguage']] as const) {
      const response = await owner.patch(`/v1/projects/${project.id}`, body)
      expect(response.statusCode, JSON.stringify(body)).toBe(400)
      expect(response.json().errors[0].field).toBe(field)
    }
  })

  it('lists active projects newest first in pages; archived ones only when asked', async () => {
    const owner = await h.member()
    const ids: string[] = []
    for (const name of ['one', 'two', 'three', 'four', 'five']) ids.push((await create(owner, { name })).json().id)
    const archived = await owner.patch(`/v1/projects/${ids[1]}`, { status: 'archived' })
    expect(archived.json()).toMatchObject({ status: 'archived', archivedAt: archived.json().updatedAt })

    const first = await owner.get('/v1/projects?limit=2')
    expect(first.statusCode).toBe(200)
    expect(first.json().map((project: { name: string }) => project.name)).toEqual(['five', 'four'])
    const second = await owner.get(`/v1/projects?limit=2&cursor=${first.headers['x-next-cursor']}`)
    expect(second.json().map((project: { name: string }) => project.name)).toEqual(['three', 'one'])
    expect(second.headers['x-next-cursor']).toBeUndefined()

    expect((await owner.get('/v1/projects?status=archived')).json().map((project: { id: string }) => project.id)).toEqual([ids[1]])
    expect((await owner.get('/v1/projects?status=all')).json()).toHaveLength(5)
    expect((await owner.get('/v1/projects?cursor=nonsense')).json().code).toBe('invalid_cursor')

    const restored = await owner.patch(`/v1/projects/${ids[1]}`, { status: 'active' })
    expect(restored.json().status).toBe('active')
    expect(restored.json().archivedAt).toBeUndefined()
    expect((await owner.get('/v1/projects')).json()).toHaveLength(5)
  })

  it('changes fields, clears them with null, keeps a no-op a no-op, and refuses a stale expectedUpdatedAt', async () => {
    const owner = await h.member()
    const project = (await create(owner, { name: 'Draft', objective: 'Old', timezone: 'UTC' })).json()
    const changed = await owner.patch(`/v1/projects/${project.id}`, { name: 'Final', objective: null, defaultLanguage: 'EN-gb', expectedUpdatedAt: project.updatedAt })
    expect(changed.statusCode).toBe(200)
    expect(changed.json()).toMatchObject({ name: 'Final', defaultLanguage: 'en-GB', timezone: 'UTC' })
    expect(changed.json().objective).toBeUndefined()
    expect(changed.json().updatedAt > project.updatedAt).toBe(true)

    const same = await owner.patch(`/v1/projects/${project.id}`, { name: 'Final' })
    expect(same.json().updatedAt).toBe(changed.json().updatedAt)

    const stale = await owner.patch(`/v1/projects/${project.id}`, { name: 'Other', expectedUpdatedAt: project.updatedAt })
    expect(stale.statusCode).toBe(409)
    expect(stale.json()).toMatchObject({ code: 'conflict', updatedAt: changed.json().updatedAt })
    expect((await owner.get(`/v1/projects/${project.id}`)).json().project.name).toBe('Final')
  })

  it('replays a create with the same Idempotency-Key, refuses another body with 422, and creates one under concurrent duplicates', async () => {
    const owner = await h.member()
    const key = { 'idempotency-key': 'create-project-1' }
    const first = await create(owner, { name: 'Once' }, key)
    const replay = await create(owner, { name: 'Once' }, key)
    expect(replay.statusCode).toBe(200)
    expect(replay.headers['idempotent-replayed']).toBe('true')
    expect(replay.json()).toEqual(first.json())
    const other = await create(owner, { name: 'Twice' }, key)
    expect(other.statusCode).toBe(422)
    expect(other.json().code).toBe('idempotency_key_reused')

    const racing = { 'idempotency-key': 'create-project-race' }
    const answers = await Promise.all(Array.from({ length: 8 }, () => create(owner, { name: 'Race' }, racing)))
    for (const answer of answers) expect([200, 409], answer.body).toContain(answer.statusCode)
    const created = answers.filter((answer) => answer.statusCode === 200).map((answer) => answer.json().id)
    expect(new Set(created).size).toBe(1)
    const listed = (await owner.get('/v1/projects?status=all')).json().filter((project: { name: string }) => project.name === 'Race')
    expect(listed).toHaveLength(1)
  })

  it('answers 404 for a project of another workspace, and lets view members read but not write', async () => {
    const owner = await h.member()
    const project = (await create(owner, { name: 'Secret' })).json()
    const stranger = await h.member()
    for (const response of [
      await stranger.get(`/v1/projects/${project.id}`),
      await stranger.patch(`/v1/projects/${project.id}`, { name: 'Mine' }),
      await stranger.get(`/v1/projects/${project.id}/members`),
      await stranger.put(`/v1/projects/${project.id}/membership`, { primaryRole: 'design' }),
    ]) {
      expect(response.statusCode).toBe(404)
      expect(response.json().code).toBe('not_found')
    }
    expect((await stranger.get('/v1/projects')).json()).toEqual([])

    const viewer = await inviteAndJoin(h, owner, { contentPermission: 'view' })
    expect((await viewer.get('/v1/projects')).json().map((item: { id: string }) => item.id)).toEqual([project.id])
    expect((await viewer.get(`/v1/projects/${project.id}`)).statusCode).toBe(200)
    for (const response of [await create(viewer, { name: 'No' }), await viewer.patch(`/v1/projects/${project.id}`, { name: 'No' })]) {
      expect(response.statusCode).toBe(403)
      expect(response.json().code).toBe('forbidden')
    }
  })
})
