// POST /v1/search/answer with `projectId` (the ask box of a project's memory page): only that
// project's meetings and work are sources; a project of another workspace is a 404, a malformed id a
// 400 — through HTTP on SQLite and PostgreSQL.
import { expect, it } from 'vitest'
import { eachDatabase } from '../../../test/harness.ts'
import { joinWorkspace, startRecording } from '../sessions/testing.ts'
import { seedSegments } from '../transcripts/testing.ts'
import { capture } from '../work/testing.ts'

eachDatabase('search answers limited to a project', (h) => {
  it('answers from the project\'s meetings and work only, and refuses a project the asker cannot see', async () => {
    const owner = await h.member()
    const viewer = await joinWorkspace(h, owner.workspaceId, 'view')
    const alpha = (await owner.post('/v1/projects', { name: 'Alpha' })).json()
    const beta = (await owner.post('/v1/projects', { name: 'Beta' })).json()
    // One open meeting per person: each is ended before the next starts.
    const meeting = async (title: string, projectId: string | undefined, texts: string[]) => {
      const session = await startRecording(owner, { title, ...(projectId ? { projectId } : {}) })
      const ids = await seedSegments(h, session, texts.map((text) => ({ text })))
      expect((await owner.post(`/v1/sessions/${session.id}/end`, {})).statusCode).toBe(200)
      return { session, ids }
    }
    const { ids: [, alphaSegment] } = await meeting('Alpha sync', alpha.id, ['Morning everyone.', 'The staging database migrates to PostgreSQL 16 next Tuesday.'])
    const { ids: [, betaSegment] } = await meeting('Beta sync', beta.id, ['Hello.', 'The staging database migrates to PostgreSQL 17 in March.'])
    const question = 'When does the staging database migrate to PostgreSQL?'

    const everywhere = (await viewer.post('/v1/search/answer', { query: question })).json()
    expect(everywhere.sources.map((source: { id: string }) => source.id)).toEqual(expect.arrayContaining([alphaSegment, betaSegment]))

    const inAlpha = await viewer.post('/v1/search/answer', { query: question, projectId: alpha.id })
    expect(inAlpha.statusCode, inAlpha.body).toBe(200)
    expect(inAlpha.json()).toMatchObject({ status: 'answered', answer: 'The staging database migrates to PostgreSQL 16 next Tuesday.' })
    expect(inAlpha.json().sources.map((source: { id: string }) => source.id)).toEqual([alphaSegment])
    const inBeta = (await viewer.post('/v1/search/answer', { query: question, projectId: beta.id })).json()
    expect(inBeta.sources.map((source: { id: string }) => source.id)).toEqual([betaSegment])

    // Work headed to the project counts even when captured in a meeting of no project.
    const loose = await startRecording(owner, { title: 'Hallway' })
    const item = await capture(owner, loose.id, { kind: 'decision', title: 'The quarterly offsite is in Lisbon', targetProjectId: beta.id })
    const offsite = 'Where is the quarterly offsite?'
    expect((await viewer.post('/v1/search/answer', { query: offsite, projectId: beta.id })).json().sources).toEqual([expect.objectContaining({ kind: 'work-object', id: item.id })])
    expect((await viewer.post('/v1/search/answer', { query: offsite, projectId: alpha.id })).json()).toMatchObject({ status: 'no-evidence', sources: [] })

    // A project without meetings answers no-evidence, not the workspace's answer.
    const empty = (await owner.post('/v1/projects', { name: 'Empty' })).json()
    expect((await viewer.post('/v1/search/answer', { query: question, projectId: empty.id })).json()).toMatchObject({ status: 'no-evidence', sources: [] })

    // Another workspace's project is not found; a malformed id is refused.
    const stranger = await h.member()
    const hidden = await stranger.post('/v1/search/answer', { query: question, projectId: alpha.id })
    expect(hidden.statusCode).toBe(404)
    expect(hidden.headers['content-type']).toContain('application/problem+json')
    expect(hidden.json()).toMatchObject({ code: 'not_found' })
    expect((await viewer.post('/v1/search/answer', { query: question, projectId: 'prj_missing000000000000000000' })).statusCode).toBe(404)
    for (const projectId of ['', 'not a project', 'ses_0123456789', 42, null]) {
      const refused = await viewer.post('/v1/search/answer', { query: question, projectId })
      expect(refused.statusCode, String(projectId)).toBe(400)
      expect(refused.json().code).toBe('validation_failed')
    }
  })
})
