// Lookups other modules make of sessions (project memory, answers): which sessions a project has,
// and the title and start of sessions a citation points at.
import type { Executor } from '../../platform/realtime/types.ts'

export type SessionBrief = { id: string; title: string; projectId: string | null; conversationId: string; startedAt: string; archived: boolean }

const brief = (row: { id: string; title: string; project_id: string | null; conversation_id: string; started_at: string; archived_at: string | null }): SessionBrief =>
  ({ id: row.id, title: row.title, projectId: row.project_id, conversationId: row.conversation_id, startedAt: row.started_at, archived: row.archived_at !== null })

const COLUMNS = ['id', 'title', 'project_id', 'conversation_id', 'started_at', 'archived_at'] as const

/** Every session of the project (archived ones too), oldest first. */
export async function listProjectSessionBriefs(db: Executor, workspaceId: string, projectId: string): Promise<SessionBrief[]> {
  const rows = await db.selectFrom('capture_sessions').select(COLUMNS).where('workspace_id', '=', workspaceId)
    .where('project_id', '=', projectId).orderBy('started_at', 'asc').execute()
  return rows.map(brief)
}

/** The sessions of the workspace among `ids`. */
export async function findSessionBriefs(db: Executor, workspaceId: string, ids: readonly string[]): Promise<SessionBrief[]> {
  if (ids.length === 0) return []
  const rows = await db.selectFrom('capture_sessions').select(COLUMNS).where('workspace_id', '=', workspaceId)
    .where('id', 'in', [...new Set(ids)]).execute()
  return rows.map(brief)
}
