// A second retrieval pass (twelfth pass, docs/answers.md): the meetings the first hits point to
// (by the whole question: the summed scores of their best hits) are searched again, within them only,
// with the question's words and the words the best passages there share (pseudo-relevance feedback,
// RM3-like: each passage's term shares weighed by its score), so that a turn worded unlike the
// question but like the discussion it belongs to is found. One more query, on at most two meetings.
import { contentTokens } from '../extraction/index.ts'
import { anySegmentHits, type SegmentHit } from '../search/index.ts'
import type { AppDeps } from '../../platform/deps.ts'
import { chineseWords } from './chinese-words.ts'
import { QUESTION_WORDS } from './ranking.ts'

const knob = (name: string, fallback: number) => Number(process.env[name] ?? fallback)
/** How many meetings are searched again, from how many of their best hits feedback words are read, how many words added, how many hits kept. */
export const EXPAND = {
  meetings: knob('EXPAND_MEETINGS', 1),
  feedback: knob('EXPAND_FEEDBACK', 5),
  terms: knob('EXPAND_TERMS', 5),
  hits: knob('EXPAND_HITS', 8),
}

/** The words of a text as the full-text index finds them: English words of four letters or more, Chinese words of two characters or more (jieba). */
function searchTerms(text: string): string[] {
  const lower = text.toLowerCase()
  const english = (lower.match(/[a-z][a-z0-9]{3,}/g) ?? []).filter((word) => contentTokens(word).length > 0)
  const chinese = (lower.match(/\p{Script=Han}+/gu) ?? []).flatMap((run) => chineseWords(run.replace(QUESTION_WORDS, '，'))).filter((word) => [...word].length >= 2 && /^\p{Script=Han}+$/u.test(word))
  return [...english, ...chinese]
}

/** The best meetings of the first hits by their summed scores (the best five hits of each). */
export function bestMeetings(hits: SegmentHit[], count: number): string[] {
  const scores = new Map<string, number[]>()
  for (const hit of hits) scores.set(hit.session_id, [...(scores.get(hit.session_id) ?? []), hit.score])
  return [...scores].map(([id, values]) => [id, values.sort((a, b) => b - a).slice(0, 5).reduce((sum, value) => sum + value, 0)] as const)
    .sort((a, b) => b[1] - a[1]).slice(0, count).map(([id]) => id)
}

/** Feedback words: each best passage's word shares weighed by its score, the question's own words left out. */
export function feedbackTerms(question: string, passages: SegmentHit[], count: number): string[] {
  const asked = new Set(searchTerms(question))
  const askedStems = new Set(contentTokens(question))
  const weights = new Map<string, number>()
  const total = passages.reduce((sum, passage) => sum + Math.max(passage.score, 1e-6), 0)
  for (const passage of passages) {
    const terms = searchTerms(passage.text).filter((term) => !asked.has(term) && !contentTokens(term).some((stem) => askedStems.has(stem)))
    for (const term of new Set(terms)) weights.set(term, (weights.get(term) ?? 0) + (Math.max(passage.score, 1e-6) / total) * (terms.filter((known) => known === term).length / terms.length))
  }
  // A word in one passage only says little of the discussion: those in two or more come first.
  const spread = (term: string) => passages.filter((passage) => passage.text.toLowerCase().includes(term)).length
  return [...weights].sort((a, b) => Number(spread(b[0]) > 1) - Number(spread(a[0]) > 1) || b[1] - a[1]).slice(0, count).map(([term]) => term)
}

/** Hits of the second pass not among the first. */
export async function expandedHits(deps: AppDeps, workspaceId: string, question: string, words: string[], hits: SegmentHit[]): Promise<SegmentHit[]> {
  if (EXPAND.meetings <= 0 || hits.length === 0) return []
  const meetings = bestMeetings(hits, EXPAND.meetings)
  const passages = hits.filter((hit) => meetings.includes(hit.session_id)).slice(0, EXPAND.feedback)
  const terms = feedbackTerms(question, passages, EXPAND.terms)
  const known = new Set(hits.map((hit) => hit.id))
  if (process.env.EXPAND_WHOLE) {
    const rows = await deps.database.db.selectFrom('transcript_segments').select(['id', 'session_id', 'text']).where('workspace_id', '=', workspaceId).where('session_id', 'in', meetings).where('status', '=', 'final').orderBy('start_ms').limit(Number(process.env.EXPAND_WHOLE)).execute()
    return rows.filter((hit) => !known.has(hit.id)).map((row) => ({ ...row, score: 0 }))
  }
  const more = await anySegmentHits(deps.database, workspaceId, [...words, ...terms], 40, meetings)
  return more.filter((hit) => !known.has(hit.id)).slice(0, EXPAND.hits)
}
