// The work of many sessions in one read (GET /v1/workobjects?sessionIds=…), which the web client's
// work board uses instead of two requests and more per meeting.
import { beforeAll, expect, it } from 'vitest'
import { eachDatabase, type Member } from '../../../test/harness.ts'
import { startRecording } from '../sessions/testing.ts'
import { capture, workTeam } from './testing.ts'

eachDatabase('work board read', (h) => {
  let owner: Member
  let viewer: Member
  let stranger: Member
  let sessionId: string

  beforeAll(async () => {
    ;({ owner, viewer, stranger, sessionId } = await workTeam(h, []))
  })

  it('lists the named sessions\' work in one answer, oldest first, for any member who may view', async () => {
    const second = (await startRecording(owner)).id
    const first = await capture(owner, sessionId, { title: 'Book the venue' })
    const other = await capture(owner, second, { title: 'Print the badges' })
    const read = await viewer.get(`/v1/workobjects?sessionIds=${sessionId},${second}`)
    expect(read.statusCode, read.body).toBe(200)
    const ids = read.json().workObjects.map((wo: { id: string }) => wo.id)
    expect(ids).toEqual(expect.arrayContaining([first.id, other.id]))
    expect(ids.indexOf(first.id)).toBeLessThan(ids.indexOf(other.id))
    expect(read.json().workObjects.find((wo: { id: string }) => wo.id === other.id)).toMatchObject({ sessionId: second, title: 'Print the badges', stage: 'captured' })
  })

  it('finds nothing of another workspace\'s sessions, and refuses more than 100 ids', async () => {
    await capture(owner, sessionId, { title: 'Not theirs' })
    const theirs = await stranger.get(`/v1/workobjects?sessionIds=${sessionId}`)
    expect(theirs.statusCode).toBe(200)
    expect(theirs.json().workObjects).toEqual([])
    const many = Array.from({ length: 101 }, (_, index) => `ses_${index}`).join(',')
    const refused = await owner.get(`/v1/workobjects?sessionIds=${many}`)
    expect(refused.statusCode).toBe(400)
    expect(refused.json().code).toBe('validation_failed')
  })
})
