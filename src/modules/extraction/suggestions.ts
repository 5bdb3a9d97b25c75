// Project suggestions for captured work (issue 7): the text an item cites is compared with each
// active project of the workspace — its name, objective, description and the titles of work
// already routed to it — and the closest one is preselected, or the inbox when none is close.
import type { AppDeps } from '../../platform/deps.ts'
import type { Membership } from '../../platform/auth/actor.ts'
import { notFound } from '../../platform/http/errors.ts'
import { findSessionRow } from '../sessions/index.ts'
import { findSessionSegments } from '../transcripts/index.ts'
import { checkSegments, listTargetedWorkTitles } from '../work/index.ts'
import { rankProjects } from './engine/rank-projects.ts'
import { listActiveProjects } from '../projects/index.ts'

export async function suggestProjects(deps: AppDeps, membership: Membership, sessionId: string, sourceSegmentIds: string[]) {
  const { db } = deps.database
  const session = await findSessionRow(db, membership.workspaceId, sessionId) ?? notFound('session', sessionId)
  const ids = await checkSegments(db, session.id, sourceSegmentIds)
  const segments = await findSessionSegments(db, session.id, ids)
  const cited = segments.sort((a, b) => a.start_ms - b.start_ms).map((segment) => segment.text).join('\n')
  const [projects, work] = await Promise.all([
    listActiveProjects(db, membership.workspaceId),
    listTargetedWorkTitles(db, membership.workspaceId),
  ])
  const titles = new Map<string, string[]>()
  for (const item of work) titles.set(item.target_project_id!, [...(titles.get(item.target_project_id!) ?? []), item.title])
  const ranking = rankProjects(cited, projects.map((project) => ({
    id: project.id, name: project.name, objective: project.objective ?? undefined, description: project.description ?? undefined,
    existingWork: titles.get(project.id),
  })))
  const names = new Map(projects.map((project) => [project.id, project.name]))
  // MeetingWorkProjectSuggestion[] (interface): the ranked projects, then the inbox; the one to
  // preselect says `preselected: true`, and every item carries the ranking's `preselectedProjectId`.
  const preselectedProjectId = ranking.preselectedProjectId ? { preselectedProjectId: ranking.preselectedProjectId } : {}
  return [
    ...ranking.suggestions.map((suggestion) => ({
      route: 'project' as const, projectId: suggestion.projectId, projectName: names.get(suggestion.projectId)!, score: suggestion.score,
      preselected: suggestion.projectId === ranking.preselectedProjectId, ...preselectedProjectId,
    })),
    { route: 'inbox' as const, preselected: ranking.route === 'inbox', ...preselectedProjectId },
  ]
}
