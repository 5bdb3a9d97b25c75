// Project memory and answers: the memory of a project (GET …/memory), settling a conflict, and
// questions answered over the workspace, or one project, with cited sources (POST /v1/search/answer).
import { api, setCached, useResource } from '../../lib/api.ts'
import { getLocale } from '../../lib/i18n.ts'
import type { AnswerSource, MemorySource, ProjectMemory, ResolveConflictInput, ResolveConflictResult, SearchAnswer } from '../../lib/types.ts'

export const memoryPath = (projectId: string) => `/v1/projects/${projectId}/memory`
export const useProjectMemory = (projectId: string) => useResource<ProjectMemory>(memoryPath(projectId))

export async function resolveConflict(projectId: string, conflictId: string, input: ResolveConflictInput) {
  const result = await api.post<ResolveConflictResult>(`${memoryPath(projectId)}/conflicts/${conflictId}/resolve`, input)
  setCached<ProjectMemory>(memoryPath(projectId), () => result.memory)
  return result
}

/** With `projectId`, only that project's meetings, work and memory answer. */
export const askQuestion = (query: string, projectId?: string) =>
  api.post<SearchAnswer>('/v1/search/answer', { query, locale: getLocale(), ...(projectId ? { projectId } : {}) })

/** Where a source opens in the client, or outside it (an external item), or nowhere (a file). */
export function sourceHref(source: MemorySource | AnswerSource): { href: string; external?: boolean } | undefined {
  if (source.kind === 'segment' && source.sessionId) return { href: `/sessions/${source.sessionId}?segment=${encodeURIComponent(source.id)}` }
  if (source.kind === 'work-object' && source.sessionId) return { href: `/sessions/${source.sessionId}?workObject=${encodeURIComponent(source.id)}` }
  const answerSource = source as AnswerSource
  if (answerSource.kind === 'memory-entry' && answerSource.projectId) return { href: `/projects/${answerSource.projectId}/memory?entry=${encodeURIComponent(answerSource.id)}` }
  if (source.kind === 'external-item' && source.url && /^https?:/.test(source.url)) return { href: source.url, external: true }
  return undefined
}
