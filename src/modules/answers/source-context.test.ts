// An answer's transcript sources say who said the passage (as the session names the speaker now)
// and in which meeting; a work object's source names its meeting — through HTTP on SQLite and PostgreSQL.
import { expect, it } from 'vitest'
import { eachDatabase } from '../../../test/harness.ts'
import { startRecording } from '../sessions/testing.ts'
import { seedSegments, seedSpeaker } from '../transcripts/testing.ts'

eachDatabase('answer sources with their speaker and meeting', (h) => {
  it('names the speaker of a cited passage, by the name given since, and its meeting', async () => {
    const owner = await h.member()
    const session = await startRecording(owner, { title: 'Release planning' })
    await seedSpeaker(h, session, 'spk_1')
    await seedSpeaker(h, session, 'spk_2')
    const [, notes] = await seedSegments(h, session, [
      { text: 'Can you update the release notes for marketing?', speakerId: 'spk_1' },
      { text: 'I will send the release notes to marketing by Friday.', speakerId: 'spk_2' },
    ])
    expect((await owner.post(`/v1/sessions/${session.id}/end`, {})).statusCode).toBe(200)
    const ask = async () => {
      const response = await owner.post('/v1/search/answer', { query: 'Who sends the release notes to marketing?' })
      expect(response.statusCode, response.body).toBe(200)
      return response.json().sources as { id: string; kind: string; speaker?: string; sessionTitle?: string }[]
    }
    const cited = (await ask()).find((source) => source.id === notes)
    expect(cited).toMatchObject({ kind: 'segment', speaker: 'Speaker 2', sessionTitle: 'Release planning' })

    expect((await owner.patch(`/v1/sessions/${session.id}/speakers/spk_2`, { name: 'Dana Li' })).statusCode).toBe(200)
    expect((await ask()).find((source) => source.id === notes)).toMatchObject({ speaker: 'Dana Li', sessionTitle: 'Release planning' })
  })
})
