// Sessions, transcripts, shares and search calls.
import { api, idempotencyKey, useResource } from '../../lib/api.ts'
import type { CreateSessionInput, SessionCreateResult, SessionSearchResult, SessionSnapshot, ShareLink, Transcript } from '../../lib/types.ts'

export const useSessions = (projectId?: string) => useResource<SessionSnapshot[]>(projectId ? `/v1/sessions?projectId=${projectId}` : '/v1/sessions')
export const useSession = (id: string) => useResource<SessionSnapshot>(`/v1/sessions/${id}`)
export const createSession = (input: CreateSessionInput) => api.post<SessionCreateResult>('/v1/sessions', input, { 'idempotency-key': idempotencyKey() })
export const endSession = (id: string) => api.post<SessionSnapshot>(`/v1/sessions/${id}/end`, {})
export const searchSessions = (q: string) => api.get<SessionSearchResult>(`/v1/search/sessions?q=${encodeURIComponent(q)}`)
export const getShare = (sessionId: string) => api.get<ShareLink>(`/v1/sessions/${sessionId}/share`)
export const updateShare = (sessionId: string, permission: 'read' | 'comment') => api.patch<ShareLink>(`/v1/sessions/${sessionId}/share`, { permission })

/** The whole transcript, page by page. */
export async function loadTranscript(sessionId: string, base = `/v1/sessions/${sessionId}/transcript`): Promise<Transcript> {
  const all: Transcript = { sessionId, segments: [], speakers: [] }
  let cursor: string | undefined
  do {
    const page: Transcript = await api.get<Transcript>(`${base}?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)
    all.segments.push(...page.segments)
    if (page.speakers?.length) all.speakers = page.speakers
    cursor = page.nextCursor
  } while (cursor)
  return all
}
