// Use cases of project memory: read it (refreshed when stale), resolve a conflict, ask the
// project's connected tools for context and bind chosen items into memory.
import type { Actor, Membership } from '../../platform/auth/actor.ts'
import type { AppDeps } from '../../platform/deps.ts'
import { AppError, badRequest, notFound } from '../../platform/http/errors.ts'
import { newId, nowIso } from '../../platform/ids.ts'
import type { ExternalItem } from '../../platform/ports.ts'
import { findProject } from '../projects/index.ts'
import { findSessionBriefs } from '../sessions/index.ts'
import { findWorkObjectBrief } from '../work/index.ts'
import type { MemorySource } from './derive.ts'
import { presentCodebase, presentConflict, presentEntry, presentExternalSource } from './presenter.ts'
import { refreshProjectMemory, scheduleRefresh } from './refresh.ts'
import * as repo from './repo.ts'
import type { ExternalContextQueryInput, ExternalSourcesInput, ResolveConflictInput } from './schemas.ts'

export type Caller = { actor: Actor; membership: Membership }

async function projectOf(deps: AppDeps, workspaceId: string, projectId: string) {
  return await findProject(deps.database.db, workspaceId, projectId) ?? notFound('project', projectId)
}

async function readMemory(deps: AppDeps, workspaceId: string, projectId: string) {
  const { db } = deps.database
  const [entries, conflicts, codebases, state] = await Promise.all([
    repo.listEntries(db, workspaceId, projectId), repo.listConflicts(db, workspaceId, projectId),
    repo.listCodebases(db, workspaceId, projectId), repo.findMemoryProject(db, workspaceId, projectId),
  ])
  const byKey = new Map(entries.map((row) => [row.entry_key, row]))
  const open = conflicts.filter((row) => row.status === 'open')
  const openOf = (key: string) => open.filter((row) => (JSON.parse(row.entry_keys) as string[]).includes(key)).map((row) => row.id)
  return {
    projectId,
    entries: entries.map((row) => presentEntry(row, openOf(row.entry_key), (key) => byKey.get(key)?.id)),
    conflicts: [...open, ...conflicts.filter((row) => row.status !== 'open')].map((row) => presentConflict(row, byKey)),
    codebases: codebases.map(presentCodebase),
    lastRefreshedAt: state?.last_refreshed_at ?? null,
  }
}

export async function getProjectMemory(deps: AppDeps, caller: Caller, projectId: string) {
  const project = await projectOf(deps, caller.membership.workspaceId, projectId)
  await refreshProjectMemory(deps, project.workspace_id, project.id)
  return readMemory(deps, project.workspace_id, project.id)
}

export async function resolveConflict(deps: AppDeps, caller: Caller, projectId: string, conflictId: string, input: ResolveConflictInput) {
  const project = await projectOf(deps, caller.membership.workspaceId, projectId)
  const { db } = deps.database
  await db.transaction().execute(async (trx) => {
    const conflict = await repo.lockConflict(trx, deps.database.dialect, project.workspace_id, project.id, conflictId) ?? notFound('memory conflict', conflictId)
    const keys = JSON.parse(conflict.entry_keys) as string[]
    const sides = await repo.findEntriesByKeys(trx, project.id, keys)
    if (conflict.status !== 'open') {
      throw new AppError('memory_conflict_settled', `This conflict was already ${conflict.status}.`, {
        extra: { conflict: presentConflict(conflict, new Map(sides.map((row) => [row.entry_key, row]))) },
      })
    }
    let kept: string | null = null
    if (input.resolution === 'keep-one') {
      const side = sides.find((row) => row.id === input.keepEntryId)
      if (!input.keepEntryId) throw badRequest('keepEntryId', 'required', 'keep-one needs keepEntryId: the side that stays current.')
      if (!side) throw badRequest('keepEntryId', 'not_a_side', 'keepEntryId must be one of the conflict\'s two entries.')
      kept = side.entry_key
    }
    const note = input.note?.trim() || null
    if (input.resolution === 'keep-both' && !note) throw badRequest('note', 'required', 'keep-both needs a note saying why both hold.')
    const now = nowIso()
    const settled = await repo.settleConflict(trx, conflict.id, {
      status: input.resolution === 'dismiss' ? 'dismissed' : 'resolved', resolution: input.resolution, kept_entry_key: kept, note,
      resolved_by: caller.actor.accountId, resolved_at: now, updated_at: now,
    })
    // Two resolutions at once: the second finds it settled (SQLite serialises, PostgreSQL locked the row).
    if (!settled) throw new AppError('memory_conflict_settled', 'This conflict was already settled.')
    const sessionIds = [...new Set(sides.flatMap((row) => (JSON.parse(row.sources) as MemorySource[]).flatMap((source) => ('sessionId' in source && source.sessionId ? [source.sessionId] : []))))]
    const data = { projectId: project.id, conflictId: conflict.id, resolution: input.resolution, keptEntryId: input.resolution === 'keep-one' ? input.keepEntryId : undefined, resolvedAt: now }
    for (const session of await findSessionBriefs(trx, project.workspace_id, sessionIds)) {
      await deps.events.append(trx, session.conversationId, 'memory.conflict_resolved', data)
    }
  })
  await refreshProjectMemory(deps, project.workspace_id, project.id, { force: true })
  const memory = await readMemory(deps, project.workspace_id, project.id)
  return { conflict: memory.conflicts.find((row) => row.id === conflictId)!, memory }
}

export async function queryExternalContext(deps: AppDeps, caller: Caller, projectId: string, input: ExternalContextQueryInput) {
  const project = await projectOf(deps, caller.membership.workspaceId, projectId)
  let query = input.query?.trim() ?? ''
  if (input.workObjectId) {
    const object = await findWorkObjectBrief(deps, project.workspace_id, input.workObjectId) ?? notFound('work object', input.workObjectId)
    query = [query, object.title, object.summary ?? ''].filter(Boolean).join(' ').slice(0, 500)
  }
  if (!query) throw badRequest('query', 'required', 'Give a query or a workObjectId.')
  let items: ExternalItem[] = []
  let connectionIds: string[] = []
  let reason: 'no-connector' | 'no-permitted-connection' | undefined
  const source = deps.ports.externalContext
  if (!source) {
    reason = 'no-connector'
  } else {
    try {
      const answer = await source({ workspaceId: project.workspace_id, projectId: project.id, query, limit: input.limit ?? 10, ...(input.connectionIds ? { connectionIds: input.connectionIds } : {}) })
      connectionIds = answer.connectionIds
      // Nothing from a connection the project may not use, whatever the connector answered.
      items = answer.items.filter((item) => connectionIds.includes(item.connectionId)).slice(0, input.limit ?? 10)
      if (connectionIds.length === 0) reason = 'no-permitted-connection'
    } catch (error) {
      if (error instanceof AppError) throw error
      throw new AppError('service_unavailable', 'The connected tools could not be asked just now; try again.')
    }
  }
  const id = newId('obs')
  const now = nowIso()
  await repo.insertObservation(deps.database.db, {
    id, workspace_id: project.workspace_id, project_id: project.id, query, connection_ids: JSON.stringify(connectionIds),
    items: JSON.stringify(items), reason: reason ?? null, created_by: caller.actor.accountId, created_at: now,
  })
  return { observationId: id, projectId: project.id, query, items, connectionIds, ...(reason ? { reason } : {}), observedAt: now }
}

export async function bindExternalSources(deps: AppDeps, caller: Caller, projectId: string, input: ExternalSourcesInput) {
  const project = await projectOf(deps, caller.membership.workspaceId, projectId)
  const observation = await repo.findObservation(deps.database.db, project.workspace_id, project.id, input.observationId) ?? notFound('observation', input.observationId)
  const items = new Map((JSON.parse(observation.items) as ExternalItem[]).map((item) => [item.itemId, item]))
  const unknown = input.itemIds.filter((itemId) => !items.has(itemId))
  if (unknown.length > 0) throw badRequest('itemIds', 'not_observed', `Not among the observation's items: ${unknown.join(', ')}.`)
  const bound = await deps.database.db.transaction().execute(async (trx) => {
    const rows = []
    const now = nowIso()
    for (const itemId of [...new Set(input.itemIds)]) {
      const item = items.get(itemId)!
      rows.push(await repo.bindExternalSource(trx, {
        id: newId('xsr'), workspace_id: project.workspace_id, project_id: project.id, observation_id: observation.id, item_id: item.itemId,
        connection_id: item.connectionId, provider: item.provider, kind: item.kind, title: item.title.slice(0, 500), snippet: item.snippet.slice(0, 2000),
        url: item.url, bound_by: caller.actor.accountId, bound_at: now,
      }))
    }
    await scheduleRefresh(trx, { workspaceId: project.workspace_id, projectId: project.id })
    return rows
  })
  return bound.map(presentExternalSource)
}
