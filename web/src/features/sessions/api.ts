// Sessions, transcripts, shares and search calls.
import { api, getEarly, idempotencyKey, prefetch, startEarly, useResource } from '../../lib/api.ts'
import type { CreateSessionInput, SessionCreateResult, SessionSearchResult, SessionSnapshot, ShareLink, Transcript } from '../../lib/types.ts'

export const useSessions = (projectId?: string) => useResource<SessionSnapshot[]>(projectId ? `/v1/sessions?projectId=${projectId}` : '/v1/sessions')
export const useSession = (id: string) => useResource<SessionSnapshot>(`/v1/sessions/${id}`)
export const createSession = (input: CreateSessionInput) => api.post<SessionCreateResult>('/v1/sessions', input, { 'idempotency-key': idempotencyKey() })
export const endSession = (id: string) => api.post<SessionSnapshot>(`/v1/sessions/${id}/end`, {})
export const searchSessions = (q: string) => api.get<SessionSearchResult>(`/v1/search/sessions?q=${encodeURIComponent(q)}`)
export const getShare = (sessionId: string) => api.get<ShareLink>(`/v1/sessions/${sessionId}/share`)
/** The live share link without creating one; undefined when there is none. */
export const peekShare = (sessionId: string) => api.get<ShareLink | undefined>(`/v1/sessions/${sessionId}/share?create=false`)
export const revokeShare = (sessionId: string) => api.delete<{ revoked: boolean }>(`/v1/sessions/${sessionId}/share`)
export const updateShare = (sessionId: string, permission: 'read' | 'comment') => api.patch<ShareLink>(`/v1/sessions/${sessionId}/share`, { permission })

/**
 * The whole transcript, page by page (the largest page the interface allows; the cursor makes them
 * one after another). `onPage` gets each page as it arrives, so the first rows show at once.
 */
export async function loadTranscript(sessionId: string, base = `/v1/sessions/${sessionId}/transcript`, onPage?: (page: Transcript) => void): Promise<Transcript> {
  const all: Transcript = { sessionId, segments: [], speakers: [] }
  let cursor: string | undefined
  do {
    const page: Transcript = await getEarly<Transcript>(transcriptPagePath(base, cursor))
    onPage?.(page)
    all.segments.push(...page.segments)
    if (page.speakers?.length) all.speakers = page.speakers
    cursor = page.nextCursor
  } while (cursor)
  return all
}

export const transcriptPagePath = (base: string, cursor?: string) => `${base}?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`

/**
 * Opening a session's page directly: its snapshot, first transcript page, work set and the
 * members start loading at once, in parallel with the shell's "who is signed in", instead of
 * one after another as the page renders.
 */
export function prefetchSessionPage(id: string) {
  startEarly(transcriptPagePath(`/v1/sessions/${id}/transcript`))
  void prefetch('/v1/workspace/members')
  void prefetch<SessionSnapshot>(`/v1/sessions/${id}`)
    .then((session) => (session ? prefetch<{ workSets: { id: string }[] }>(`/v1/conversations/${session.conversationId}/workset`) : undefined))
    .then((sets) => (sets?.workSets[0] ? prefetch(`/v1/worksets/${sets.workSets[0].id}`) : undefined))
}
