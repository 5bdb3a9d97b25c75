// Refreshing a project's memory: gather what it derives from (accepted work, bound external items,
// indexed codebases), derive entries and conflicts (derive.ts) and store them when anything
// changed. The `memory.refresh` job runs it after a work set changes (the work module tells us
// through deps.ports.workChanged); reading the memory runs it too when it is stale.
import type { AppDeps } from '../../platform/deps.ts'
import { sha256Hex, newId, nowIso } from '../../platform/ids.ts'
import { defineJob, enqueue } from '../../platform/jobs/index.ts'
import type { Executor } from '../../platform/realtime/types.ts'
import { findSessionRow, listProjectSessionBriefs } from '../sessions/index.ts'
import { findWorkspaceSegments } from '../transcripts/index.ts'
import { listAcceptedProjectWork, type AcceptedWorkItem } from '../work/index.ts'
import { deriveMemory, type Candidate, type MemorySource, type Resolution } from './derive.ts'
import * as repo from './repo.ts'

export const REFRESH_JOB = 'memory.refresh'

type RefreshPayload = { workspaceId: string; projectId?: string; sessionId?: string }

defineJob<RefreshPayload>({
  name: REFRESH_JOB,
  backoff: 2000,
  async handler(payload, { deps }) {
    let projectId = payload.projectId
    if (!projectId && payload.sessionId) projectId = (await findSessionRow(deps.database.db, payload.workspaceId, payload.sessionId))?.project_id ?? undefined
    if (!projectId) return
    await refreshProjectMemory(deps, payload.workspaceId, projectId)
  },
})

/** Schedules a refresh of the project's memory (or of the session's project) with the caller's change. */
export async function scheduleRefresh(executor: Executor, payload: RefreshPayload) {
  await enqueue(executor, REFRESH_JOB, payload, { dedupeKey: payload.projectId ?? `session:${payload.sessionId}`, findPending: false })
}

const WORK_KINDS: Record<string, (item: AcceptedWorkItem) => Candidate['kind'] | undefined> = {
  decision: (item) => (item.semanticType === 'policy' ? 'rule' : 'decision'),
  outcome: (item) => (item.semanticType === 'metric' ? 'metric' : 'outcome'),
  reference: () => 'reference',
  action: (item) => (item.stage === 'accepted' ? 'outcome' : undefined),
}

async function gather(deps: AppDeps, workspaceId: string, projectId: string) {
  const { db } = deps.database
  const sessions = await listProjectSessionBriefs(db, workspaceId, projectId)
  const work = await listAcceptedProjectWork(deps, workspaceId, { projectId, sessionIds: sessions.map((session) => session.id) })
  const segments = new Map((await findWorkspaceSegments(db, workspaceId, work.flatMap((item) => item.sourceSegmentIds))).map((segment) => [segment.id, segment]))
  const external = await repo.listExternalSources(db, workspaceId, projectId)
  const codebases = await repo.listCodebases(db, workspaceId, projectId)
  const candidates: Candidate[] = []
  for (const item of work) {
    const kind = WORK_KINDS[item.kind]?.(item)
    if (!kind) continue
    const sources: MemorySource[] = [{ kind: 'work-object', id: item.id, sessionId: item.sessionId, quote: item.title }]
    for (const id of item.sourceSegmentIds) {
      const segment = segments.get(id)
      if (segment) sources.push({ kind: 'segment', id, sessionId: segment.session_id, quote: segment.text, startMs: segment.start_ms })
    }
    candidates.push({ key: `wo:${item.id}`, kind, statement: item.title, validFrom: item.createdAt, sources, supersedes: item.supersedes.map((id) => `wo:${id}`) })
  }
  for (const source of external) {
    candidates.push({
      key: `ext:${source.id}`, kind: 'reference', statement: source.snippet ? `${source.title}: ${source.snippet}`.slice(0, 500) : source.title, validFrom: source.bound_at,
      sources: [{ kind: 'external-item', id: source.item_id, quote: source.snippet || source.title, url: source.url, provider: source.provider, title: source.title }], supersedes: [],
    })
  }
  for (const codebase of codebases.filter((row) => row.state === 'ready')) {
    const headings = await repo.firstChunks(db, codebase.id, 3)
    candidates.push({
      key: `code:${codebase.id}`, kind: 'code', statement: `Codebase ${codebase.source}: ${codebase.file_count} files, ${codebase.symbol_count} symbols indexed.`,
      validFrom: codebase.indexed_at ?? codebase.created_at,
      sources: headings.map((chunk) => ({ kind: 'file' as const, id: chunk.id, quote: chunk.text.slice(0, 300), path: chunk.path, line: chunk.line })), supersedes: [],
    })
  }
  const fingerprint = sha256Hex(JSON.stringify([
    work.map((item) => [item.id, item.updatedAt, item.supersedes]), external.map((source) => source.id),
    codebases.map((row) => [row.id, row.state, row.indexed_at]), [...segments.values()].map((segment) => [segment.id, segment.updated_at]),
  ]))
  return { candidates, fingerprint }
}

/** Derives and stores the project's memory when what it reads changed (or when `force`). */
export async function refreshProjectMemory(deps: AppDeps, workspaceId: string, projectId: string, options: { force?: boolean } = {}) {
  const { candidates, fingerprint } = await gather(deps, workspaceId, projectId)
  return deps.database.db.transaction().execute(async (trx) => {
    const state = await repo.lockMemoryProject(trx, deps.database.dialect, projectId)
    if (state && state.fingerprint === fingerprint && !options.force) return state.last_refreshed_at
    const resolutions = new Map<string, Resolution>((await repo.listConflicts(trx, workspaceId, projectId)).map((row) => [row.conflict_key, {
      conflictKey: row.conflict_key, status: row.status, resolution: row.resolution, keptEntryKey: row.kept_entry_key, note: row.note, resolvedAt: row.resolved_at,
    }]))
    const derived = deriveMemory(candidates, resolutions)
    const now = nowIso()
    await repo.replaceEntries(trx, workspaceId, projectId, derived.entries, now)
    await repo.syncOpenConflicts(trx, workspaceId, projectId, derived.conflicts, now, () => newId('mcf'))
    await repo.saveMemoryProject(trx, { project_id: projectId, workspace_id: workspaceId, fingerprint, last_refreshed_at: now, created_at: state?.created_at ?? now })
    return now
  })
}
