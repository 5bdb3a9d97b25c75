import { expect, it } from 'vitest'
import { eachDatabase } from '../../../test/harness.ts'
import { joinWorkspace, startRecording } from '../sessions/testing.ts'
import { seedSegments } from '../transcripts/testing.ts'
import { sha256Hex } from '../../platform/ids.ts'
import { capture } from '../work/testing.ts'

eachDatabase('share links', (h) => {
  it('creates the link on first read (read, 30 days) and answers the same link again', async () => {
    const owner = await h.member()
    const session = await startRecording(owner)
    const first = await owner.get(`/v1/sessions/${session.id}/share`)
    expect(first.statusCode).toBe(200)
    const link = first.json()
    expect(link).toMatchObject({ permission: 'read', shareURL: `http://localhost:8080/share/${link.shareToken}` })
    const days = (Date.parse(link.expiresAt) - Date.now()) / 86_400_000
    expect(days).toBeGreaterThan(29.9)
    expect(days).toBeLessThan(30.1)
    expect((await owner.get(`/v1/sessions/${session.id}/share`)).json()).toEqual(link)
    const row = await h.database.db.selectFrom('session_shares').selectAll().executeTakeFirstOrThrow()
    expect(row.token_hash).toBe(sha256Hex(link.shareToken))
    expect(JSON.stringify(row)).not.toContain(link.shareToken)
  })

  it('only reads with create=false: 204 before the first link and after revoking, the live link otherwise', async () => {
    const owner = await h.member()
    const session = await startRecording(owner)
    const none = await owner.get(`/v1/sessions/${session.id}/share?create=false`)
    expect(none.statusCode).toBe(204)
    expect(none.body).toBe('')
    expect(await h.database.db.selectFrom('session_shares').select('id').where('session_id', '=', session.id).execute()).toHaveLength(0)
    const link = (await owner.get(`/v1/sessions/${session.id}/share`)).json()
    expect((await owner.get(`/v1/sessions/${session.id}/share?create=false`)).json()).toEqual(link)
    await owner.delete(`/v1/sessions/${session.id}/share`)
    expect((await owner.get(`/v1/sessions/${session.id}/share?create=false`)).statusCode).toBe(204)
    expect((await owner.get(`/v1/sessions/ses_unknown/share?create=false`)).statusCode).toBe(404)
    expect((await owner.get(`/v1/sessions/${session.id}/share?create=maybe`)).statusCode).toBe(400)
  })

  it('keeps one live link when first reads race', async () => {
    const owner = await h.member()
    const session = await startRecording(owner)
    const answers = await Promise.all(Array.from({ length: 6 }, () => owner.get(`/v1/sessions/${session.id}/share`)))
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(6).fill(200))
    expect(new Set(answers.map((answer) => answer.json().shareToken)).size).toBe(1)
    const rows = await h.database.db.selectFrom('session_shares').select('id').where('session_id', '=', session.id).execute()
    expect(rows).toHaveLength(1)
  })

  it('shows the meeting to anyone holding the token, and nothing of other sessions', async () => {
    const owner = await h.member()
    const session = await startRecording(owner, { title: 'Roadmap review' })
    await seedSegments(h, session, [{ text: 'We ship on Friday.', speakerId: 'spk_1' }, { text: 'Bob owns the release notes.', speakerId: 'spk_2' }])
    const other = await startRecording(await h.member())
    await seedSegments(h, other, [{ text: 'Secret of another workspace.' }])
    const { shareToken } = (await owner.get(`/v1/sessions/${session.id}/share`)).json()
    const view = await h.anonymous.get(`/v1/shares/${shareToken}`)
    expect(view.statusCode).toBe(200)
    const body = view.json()
    expect(body).toMatchObject({ permission: 'read', comments: [], session: { id: session.id, title: 'Roadmap review' } })
    expect(body.transcript.segments.map((segment: { text: string }) => segment.text)).toEqual(['We ship on Friday.', 'Bob owns the release notes.'])
    expect(view.body).not.toContain('Secret')
  })

  it('pages a long shared transcript', async () => {
    const owner = await h.member()
    const session = await startRecording(owner)
    await seedSegments(h, session, Array.from({ length: 501 }, (_, index) => ({ text: `line ${index}` })))
    const { shareToken } = (await owner.get(`/v1/sessions/${session.id}/share`)).json()
    const first = (await h.anonymous.get(`/v1/shares/${shareToken}`)).json().transcript
    expect(first.segments).toHaveLength(500)
    const rest = (await h.anonymous.get(`/v1/shares/${shareToken}/transcript?cursor=${first.nextCursor}`)).json()
    expect(rest.segments.map((segment: { text: string }) => segment.text)).toEqual(['line 500'])
    expect(rest.nextCursor).toBeUndefined()
  })

  it('changes permission and expiry; edit members only; bad values are 400 with the field', async () => {
    const owner = await h.member()
    const session = await startRecording(owner)
    const viewer = await joinWorkspace(h, owner.workspaceId, 'view')
    const before = (await viewer.get(`/v1/sessions/${session.id}/share`)).json()
    expect((await viewer.patch(`/v1/sessions/${session.id}/share`, { permission: 'comment' })).statusCode).toBe(403)
    const changed = await owner.patch(`/v1/sessions/${session.id}/share`, { permission: 'comment', expiresInDays: 2 })
    expect(changed.statusCode).toBe(200)
    expect(changed.json()).toMatchObject({ shareToken: before.shareToken, permission: 'comment' })
    expect(Date.parse(changed.json().expiresAt) - Date.now()).toBeLessThan(2 * 86_400_000 + 5000)
    expect((await h.anonymous.get(`/v1/shares/${before.shareToken}`)).json().permission).toBe('comment')
    const past = await owner.patch(`/v1/sessions/${session.id}/share`, { expiresAt: '2020-01-01T00:00:00Z' })
    expect(past.statusCode).toBe(400)
    expect(past.json().errors[0].field).toBe('expiresAt')
    expect((await owner.patch(`/v1/sessions/${session.id}/share`, { permission: 'write' })).statusCode).toBe(400)
    expect((await owner.patch(`/v1/sessions/${session.id}/share`, {})).statusCode).toBe(400)
  })

  it('answers the same 404 for unknown, revoked and expired tokens, and issues a new token after', async () => {
    const owner = await h.member()
    const session = await startRecording(owner)
    const { shareToken } = (await owner.get(`/v1/sessions/${session.id}/share`)).json()
    const unknown = await h.anonymous.get('/v1/shares/not-a-token')
    expect(unknown.statusCode).toBe(404)
    expect((await owner.delete(`/v1/sessions/${session.id}/share`)).json()).toEqual({ revoked: true })
    const revoked = await h.anonymous.get(`/v1/shares/${shareToken}`)
    expect(revoked.statusCode).toBe(404)
    expect(revoked.json().detail).toBe(unknown.json().detail)
    const renewed = (await owner.get(`/v1/sessions/${session.id}/share`)).json()
    expect(renewed.shareToken).not.toBe(shareToken)
    await h.database.db.updateTable('session_shares').set({ expires_at: '2020-01-01T00:00:00.000Z' }).where('revoked_at', 'is', null).where('session_id', '=', session.id).execute()
    const expired = await h.anonymous.get(`/v1/shares/${renewed.shareToken}`)
    expect(expired.statusCode).toBe(404)
    expect(expired.json().detail).toBe(unknown.json().detail)
    expect((await owner.get(`/v1/sessions/${session.id}/share`)).json().shareToken).not.toBe(renewed.shareToken)
  })

  it('keeps sessions of another workspace out of reach', async () => {
    const owner = await h.member()
    const session = await startRecording(owner)
    const stranger = await h.member()
    expect((await stranger.get(`/v1/sessions/${session.id}/share`)).statusCode).toBe(404)
    expect((await stranger.delete(`/v1/sessions/${session.id}/share`)).statusCode).toBe(404)
  })

  it('takes comments only through a comment link, on the shared session\'s objects, into the objects\' comments', async () => {
    const owner = await h.member()
    const session = await startRecording(owner)
    const object = await capture(owner, session.id, { kind: 'action', title: 'Send the deck' })
    const internal = await owner.post(`/v1/workobjects/${object.id}/comments`, { body: 'Internal note: client is late again' })
    expect(internal.statusCode).toBe(200)
    const { shareToken } = (await owner.get(`/v1/sessions/${session.id}/share`)).json()
    const post = (body: unknown) => h.anonymous.post(`/v1/shares/${shareToken}/comments`, body)

    const refused = await post({ workObjectId: object.id, body: 'Looks good' })
    expect(refused.statusCode).toBe(403)
    expect(refused.json().code).toBe('forbidden')
    await owner.patch(`/v1/sessions/${session.id}/share`, { permission: 'comment' })
    const made = await post({ workObjectId: object.id, body: 'Looks good to us', authorName: 'Ada (client)' })
    expect(made.statusCode).toBe(200)
    expect(made.json()).toMatchObject({ workObjectId: object.id, body: 'Looks good to us', authorName: 'Ada (client)' })

    const listed = (await owner.get(`/v1/workobjects/${object.id}/comments`)).json()
    expect(listed.map((comment: { body: string }) => comment.body)).toEqual(['Internal note: client is late again', 'Looks good to us'])
    const view = (await h.anonymous.get(`/v1/shares/${shareToken}`)).json()
    expect(view.comments.map((comment: { body: string }) => comment.body)).toEqual(['Looks good to us'])
    expect(view.workObjects.map((item: { id: string; title: string }) => [item.id, item.title])).toEqual([[object.id, 'Send the deck']])

    expect((await post({ workObjectId: 'wo_unknown', body: 'x' })).statusCode).toBe(404)
    // An object of another session of the same workspace is out of this link's reach.
    const colleague = await joinWorkspace(h, owner.workspaceId, 'edit')
    const elsewhere = await capture(colleague, (await startRecording(colleague)).id, { kind: 'action', title: 'Not shared' })
    expect((await post({ workObjectId: elsewhere.id, body: 'x' })).statusCode).toBe(404)
    expect((await post({ workObjectId: object.id, body: 'x'.repeat(4001) })).statusCode).toBe(400)
    expect((await post({ workObjectId: object.id, body: '   ' })).statusCode).toBe(400)
  })

  it('rate-limits comments per link and client address', async () => {
    const owner = await h.member()
    const session = await startRecording(owner)
    const object = await capture(owner, session.id, { kind: 'question', title: 'Which venue?' })
    const { shareToken } = (await owner.get(`/v1/sessions/${session.id}/share`)).json()
    await owner.patch(`/v1/sessions/${session.id}/share`, { permission: 'comment' })
    const statuses: number[] = []
    for (let index = 0; index < 11; index += 1) {
      statuses.push((await h.anonymous.post(`/v1/shares/${shareToken}/comments`, { workObjectId: object.id, body: `note ${index}` })).statusCode)
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200))
    expect(statuses[10]).toBe(429)
    await owner.delete(`/v1/sessions/${session.id}/share`)
  })
})
