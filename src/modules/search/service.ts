// GET /v1/search/sessions: the workspace's sessions whose title or transcript holds every term of
// the query, best first, each with a highlighted snippet of its best-matching segment.
import type { AppDeps } from '../../platform/deps.ts'
import type { Membership } from '../../platform/auth/actor.ts'
import { parseTerms, snippet } from '../../platform/db/text-search.ts'
import { findSessionsByTitleTerms, listSessionsByIds, presentSession, toSessionRow, type SessionSnapshot } from '../sessions/index.ts'
import { segmentHits } from '../transcripts/index.ts'

export type SearchInput = { q: string; limit?: number; archived?: boolean }

type Hit = { sessionId: string; score: number; segmentId?: string; text: string; matchedIn: 'title' | 'transcript' }

/** A title match outranks a transcript match of the same session; more matching segments rank higher. */
const TITLE_BONUS = 5

export async function searchSessions(deps: AppDeps, membership: Membership, input: SearchInput) {
  const terms = parseTerms(input.q)
  const limit = input.limit ?? 20
  if (terms.all.length === 0) return { query: input.q, sessions: [] }
  const [segments, titles] = await Promise.all([
    segmentHits(deps.database, membership.workspaceId, terms),
    findSessionsByTitleTerms(deps.database.db, membership.workspaceId, terms),
  ])
  const hits = new Map<string, Hit & { count: number }>()
  for (const segment of segments) {
    const hit = hits.get(segment.session_id)
    if (!hit) hits.set(segment.session_id, { sessionId: segment.session_id, score: segment.score, segmentId: segment.id, text: segment.text, matchedIn: 'transcript', count: 1 })
    else hit.count += 1
  }
  for (const title of titles) {
    const hit = hits.get(title.id)
    if (hit) {
      hit.score += TITLE_BONUS
      hit.matchedIn = 'title'
    } else {
      hits.set(title.id, { sessionId: title.id, score: TITLE_BONUS, text: title.title, matchedIn: 'title', count: 0 })
    }
  }
  const ranked = [...hits.values()].map((hit) => ({ ...hit, score: hit.score + Math.log1p(hit.count) })).sort((a, b) => b.score - a.score)
  if (ranked.length === 0) return { query: input.q, sessions: [] }
  // The best few are enough: archived ones left out still leave `limit` in all but odd cases.
  const rows = await listSessionsByIds(deps.database.db, membership.workspaceId, ranked.slice(0, limit * 3).map((hit) => hit.sessionId), input.archived ?? false)
  const byId = new Map(rows.map((row) => [row.id, row]))
  const sessions: (SessionSnapshot & { search: { score: number; matchedIn: 'title' | 'transcript'; snippet: string; segmentId?: string } })[] = []
  for (const hit of ranked) {
    const row = byId.get(hit.sessionId)
    if (!row) continue
    const best = hit.matchedIn === 'title' && hit.segmentId === undefined ? row.title : hit.text
    sessions.push({
      ...presentSession(toSessionRow(row)),
      search: {
        score: Number(hit.score.toFixed(4)), matchedIn: hit.matchedIn, snippet: snippet(best, terms.all),
        ...(hit.segmentId ? { segmentId: hit.segmentId } : {}),
      },
    })
    if (sessions.length === limit) break
  }
  return { query: input.q, sessions }
}
