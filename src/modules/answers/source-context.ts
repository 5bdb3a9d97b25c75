// What a reader needs to weigh a cited passage, added to an answer's sources after the answer is
// chosen (nothing here ranks or chooses): for a transcript passage, who said it (as the session
// names the speaker now) and in which meeting; for a work object, its meeting. "Who sends the
// release notes?" is answered by the passage "I will send the release notes…" — and by its speaker.
import type { AppDeps } from '../../platform/deps.ts'
import { findSessionBriefs } from '../sessions/index.ts'
import { segmentSpeakerLabels } from '../transcripts/index.ts'
import type { AnswerSource, SearchAnswer } from './ranking.ts'

export type SourceWithContext = AnswerSource & { speaker?: string; sessionTitle?: string }

export async function withSourceContext(deps: AppDeps, workspaceId: string, answer: SearchAnswer): Promise<SearchAnswer & { sources: SourceWithContext[] }> {
  if (answer.sources.length === 0) return answer
  const { db } = deps.database
  const segmentIds = answer.sources.filter((source) => source.kind === 'segment').map((source) => source.id)
  const sessionIds = answer.sources.flatMap((source) => (source.kind === 'segment' || source.kind === 'work-object') && source.sessionId ? [source.sessionId] : [])
  const [speakers, sessions] = await Promise.all([
    segmentSpeakerLabels(db, workspaceId, segmentIds),
    findSessionBriefs(db, workspaceId, sessionIds),
  ])
  const titles = new Map(sessions.map((session) => [session.id, session.title]))
  return {
    ...answer,
    sources: answer.sources.map((source) => {
      const speaker = source.kind === 'segment' ? speakers.get(source.id) : undefined
      const sessionTitle = source.sessionId ? titles.get(source.sessionId) : undefined
      return { ...source, ...(speaker ? { speaker } : {}), ...(sessionTitle ? { sessionTitle } : {}) }
    }),
  }
}
