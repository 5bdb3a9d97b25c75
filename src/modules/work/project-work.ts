// What other modules read of a project's work (the memory module derives its entries from it and
// answers cite it): accepted work — objects a person made or whose proposal a person accepted —
// with the `supersedes` relations people confirmed. Pending and rejected proposals stay out of
// memory; answers also read pending proposals (what the meeting's extraction proposed, marked so).
import { sql } from 'kysely'
import type { AppDeps } from '../../platform/deps.ts'
import type { WorkKind } from '../../platform/db/tables.ts'

export type AcceptedWorkItem = {
  id: string
  sessionId: string
  kind: WorkKind
  semanticType: string
  title: string
  summary: string | null
  sourceSegmentIds: string[]
  stage: string
  createdAt: string
  updatedAt: string
  /** ids of the objects this one supersedes (confirmed relations) */
  supersedes: string[]
}

const isAccepted = (state: string | null) => state === null || state === 'accepted'

/** Accepted work objects of the given sessions or aimed at the project, oldest first. */
export async function listAcceptedProjectWork(deps: AppDeps, workspaceId: string, scope: { projectId: string; sessionIds: string[] }): Promise<AcceptedWorkItem[]> {
  const { db } = deps.database
  const rows = await db.selectFrom('work_objects').selectAll().where('workspace_id', '=', workspaceId)
    .where((eb) => eb.or([
      eb('target_project_id', '=', scope.projectId),
      ...(scope.sessionIds.length > 0 ? [eb.and([eb('session_id', 'in', scope.sessionIds), eb('target_project_id', 'is', null)])] : []),
    ]))
    .orderBy('created_at', 'asc').orderBy('id', 'asc').execute()
  const accepted = rows.filter((row) => isAccepted(row.proposal_state))
  if (accepted.length === 0) return []
  const relations = await db.selectFrom('work_relations').select(['from_object_id', 'to_object_id'])
    .where('type', '=', 'supersedes').where('status', '=', 'confirmed')
    .where('from_object_id', 'in', accepted.map((row) => row.id)).execute()
  return accepted.map((row) => ({
    id: row.id, sessionId: row.session_id, kind: row.kind, semanticType: row.semantic_type, title: row.title, summary: row.summary,
    sourceSegmentIds: JSON.parse(row.source_segment_ids) as string[], stage: row.stage, createdAt: row.created_at, updatedAt: row.updated_at,
    supersedes: relations.filter((relation) => relation.from_object_id === row.id).map((relation) => relation.to_object_id),
  }))
}

export type WorkSearchHit = {
  id: string; sessionId: string; kind: WorkKind; title: string; summary: string | null; sourceSegmentIds: string[]; createdAt: string
  /** a pending AI proposal nobody has accepted yet */
  proposed: boolean
  /** who takes it: the member responsible, else the name the engine heard (and the member it matched) */
  ownerAccountId: string | null; ownerHint: string | null; ownerHintAccountId: string | null
  /** ISO date */
  dueDate: string | null
}

/**
 * Work objects of the workspace whose title or summary holds any of the words: accepted work and
 * pending AI proposals (what a meeting's extraction proposed is what the product shows of it until
 * someone reviews it); rejected and superseded proposals left out.
 */
export async function findWorkObjectsMentioning(deps: AppDeps, workspaceId: string, words: string[], limit = 200, project?: { projectId: string; sessionIds: readonly string[] }): Promise<WorkSearchHit[]> {
  if (words.length === 0) return []
  const like = (word: string) => `%${word.replace(/[\\%_]/g, (character) => `\\${character}`)}%`
  const rows = await deps.database.db.selectFrom('work_objects')
    .select(['id', 'session_id', 'kind', 'title', 'summary', 'source_segment_ids', 'created_at', 'proposal_state', 'owner_account_id', 'owner_hint', 'owner_hint_account_id', 'due_date'])
    .where('workspace_id', '=', workspaceId)
    .where((eb) => eb.or([eb('proposal_state', 'is', null), eb('proposal_state', 'in', ['accepted', 'pending'])]))
    // A project's question: work headed to the project or captured in its meetings.
    .$if(project !== undefined, (query) => query.where((eb) => eb.or([
      eb('target_project_id', '=', project!.projectId),
      ...(project!.sessionIds.length > 0 ? [eb('session_id', 'in', project!.sessionIds)] : []),
    ])))
    .where((eb) => eb.or(words.flatMap((word) => [
      sql<boolean>`lower(title) like ${like(word)} escape '\\'`,
      sql<boolean>`lower(coalesce(summary, '')) like ${like(word)} escape '\\'`,
    ])))
    // Those holding the most of the words first (a workspace's many proposals share a common word).
    .orderBy(sql`${sql.join(words.map((word) => sql`(case when lower(title) like ${like(word)} escape '\\' or lower(coalesce(summary, '')) like ${like(word)} escape '\\' then 1 else 0 end)`), sql` + `)}`, 'desc')
    .orderBy('id')
    .limit(limit).execute()
  return rows.map((row) => ({
    id: row.id, sessionId: row.session_id, kind: row.kind, title: row.title, summary: row.summary,
    sourceSegmentIds: JSON.parse(row.source_segment_ids) as string[], createdAt: row.created_at, proposed: row.proposal_state === 'pending',
    ownerAccountId: row.owner_account_id, ownerHint: row.owner_hint, ownerHintAccountId: row.owner_hint_account_id, dueDate: row.due_date,
  }))
}

/** A work object of the workspace by id: what external context is asked about. */
export async function findWorkObjectBrief(deps: AppDeps, workspaceId: string, id: string) {
  const row = await deps.database.db.selectFrom('work_objects').select(['id', 'session_id', 'kind', 'title', 'summary'])
    .where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst()
  return row ? { id: row.id, sessionId: row.session_id, kind: row.kind, title: row.title, summary: row.summary } : undefined
}
