import { sql } from 'kysely'
import { expect, it } from 'vitest'
import { eachDatabase } from '../../../test/harness.ts'
import { startRecording } from '../sessions/testing.ts'
import { seedSegments } from '../transcripts/testing.ts'
import { snippet } from '../../platform/db/text-search.ts'

eachDatabase('session search', (h) => {
  const search = (member: { get(url: string): Promise<{ statusCode: number; json(): any }> }, q: string, extra = '') =>
    member.get(`/v1/search/sessions?q=${encodeURIComponent(q)}${extra}`)

  it('finds sessions by transcript words, best first, with a highlighted snippet, only in the workspace', async () => {
    const owner = await h.member()
    const release = await startRecording(owner, { title: 'Release sync' })
    await seedSegments(h, release, [
      { text: 'We ship the release on Friday.' }, { text: 'The release notes need a <b>review</b> of the release.' },
    ])
    await owner.post(`/v1/sessions/${release.id}/end`)
    const budget = await startRecording(owner, { title: 'Budget' })
    await seedSegments(h, budget, [{ text: 'Marketing budget stays flat; no release talk here except once.' }])
    await owner.post(`/v1/sessions/${budget.id}/end`)
    const stranger = await h.member()
    const theirs = await startRecording(stranger, { title: 'Their release' })
    await seedSegments(h, theirs, [{ text: 'A release of another workspace.' }])

    const found = await search(owner, 'release')
    expect(found.statusCode).toBe(200)
    const body = found.json()
    expect(body.query).toBe('release')
    expect(body.sessions.map((session: { id: string }) => session.id)).toEqual([release.id, budget.id])
    expect(body.sessions[0].search).toMatchObject({ matchedIn: 'title', segmentId: expect.any(String) })
    expect(body.sessions[1].search.snippet).toContain('<mark>release</mark>')
    const notes = (await search(owner, 'notes review')).json().sessions
    expect(notes).toHaveLength(1)
    expect(notes[0].search.snippet).toBe('The release <mark>notes</mark> need a &#60;b&#62;<mark>review</mark>&#60;/b&#62; of the release.')
    expect((await search(owner, 'nothing-like-this')).json().sessions).toEqual([])
    expect((await search(stranger, 'release')).json().sessions.map((session: { id: string }) => session.id)).toEqual([theirs.id])
  })

  it('finds Chinese text by substrings of any length, and words in titles', async () => {
    const owner = await h.member()
    const session = await startRecording(owner, { title: '季度规划会' })
    await seedSegments(h, session, [{ text: '我们决定下周五之前完成预算审批。', language: 'zh-Hans' }, { text: '张伟负责联系供应商。', language: 'zh-Hans' }])
    await owner.post(`/v1/sessions/${session.id}/end`)
    const long = (await search(owner, '预算审批')).json().sessions
    expect(long.map((hit: { id: string }) => hit.id)).toEqual([session.id])
    expect(long[0].search.snippet).toContain('<mark>预算审批</mark>')
    expect((await search(owner, '预算')).json().sessions).toHaveLength(1)
    expect((await search(owner, '供应商 张伟')).json().sessions).toHaveLength(1)
    expect((await search(owner, '规划')).json().sessions[0].search.matchedIn).toBe('title')
    expect((await search(owner, '预算 供应商')).json().sessions).toHaveLength(0)
  })

  it('follows changes to the transcript, leaves archived sessions out unless asked, and refuses an empty query', async () => {
    const owner = await h.member()
    const session = await startRecording(owner, { title: 'Standup' })
    const [id] = await seedSegments(h, session, [{ text: 'The deploy pipeline is flaky.' }])
    expect((await search(owner, 'flaky')).json().sessions).toHaveLength(1)
    await h.database.db.updateTable('transcript_segments').set({ text: 'The deploy pipeline is stable.' }).where('id', '=', id!).execute()
    expect((await search(owner, 'flaky')).json().sessions).toHaveLength(0)
    expect((await search(owner, 'stable')).json().sessions).toHaveLength(1)
    await owner.post(`/v1/sessions/${session.id}/end`)
    await owner.patch(`/v1/sessions/${session.id}`, { archived: true })
    expect((await search(owner, 'stable')).json().sessions).toHaveLength(0)
    expect((await search(owner, 'stable', '&archived=true')).json().sessions).toHaveLength(1)
    await h.database.db.deleteFrom('transcript_segments').where('id', '=', id!).execute()
    expect((await search(owner, 'stable', '&archived=true')).json().sessions).toHaveLength(0)
    expect((await owner.get('/v1/search/sessions?q=')).statusCode).toBe(400)
    expect((await h.anonymous.get('/v1/search/sessions?q=x')).statusCode).toBe(401)
  })

  it('still finds the right segments after rows were deleted and the database compacted (SQLite VACUUM)', async () => {
    const owner = await h.member()
    const session = await startRecording(owner, { title: 'Compaction' })
    const filler = await seedSegments(h, session, Array.from({ length: 60 }, (_, index) => ({ text: `filler line number ${index} about nothing` })))
    const kept = await seedSegments(h, session, [{ text: 'The quarterly zeppelin inspection is on Monday.' }, { text: 'Edited later: old words.' }])
    await h.database.db.deleteFrom('transcript_segments').where('id', 'in', filler.slice(0, 50)).execute()
    await h.database.db.updateTable('transcript_segments').set({ text: 'Edited later: marmalade budget.' }).where('id', '=', kept[1]!).execute()
    if (h.kind === 'sqlite') await sql`vacuum`.execute(h.database.db)
    const zeppelin = (await search(owner, 'zeppelin')).json().sessions
    expect(zeppelin.map((found: { search: { segmentId: string } }) => found.search.segmentId)).toEqual([kept[0]])
    expect((await search(owner, 'marmalade')).json().sessions[0].search.segmentId).toBe(kept[1])
    expect((await search(owner, 'old words')).json().sessions).toEqual([])
    expect(filler.slice(50)).toContain((await search(owner, 'filler')).json().sessions[0].search.segmentId)
  })
})

it('builds snippets around the first match and escapes HTML', () => {
  const text = `${'x'.repeat(300)} the budget <script> and the Budget again ${'y'.repeat(300)}`
  const out = snippet(text, ['budget'])
  expect(out.startsWith('…')).toBe(true)
  expect(out.endsWith('…')).toBe(true)
  expect(out).toContain('<mark>budget</mark> &#60;script&#62; and the <mark>Budget</mark>')
})
