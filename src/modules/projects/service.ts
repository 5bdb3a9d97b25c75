// Project use cases: list, create, read (with its sessions), change (including archive/restore).
import type { Updateable } from 'kysely'
import type { AppDeps } from '../../platform/deps.ts'
import type { ProjectTable } from '../../platform/db/tables.ts'
import { AppError, notFound } from '../../platform/http/errors.ts'
import type { memberOf } from '../../platform/http/guards.ts'
import { decodeCursor, paginate } from '../../platform/http/pagination.ts'
import { assertTimeZone, canonicalLanguageTag, requiredText } from '../../platform/http/validators.ts'
import { newId, nowIso } from '../../platform/ids.ts'
import { addProjectMember, defaultProjectRole } from './membership.ts'
import { presentProject } from './presenter.ts'
import * as repo from './repo.ts'
import type { CreateProjectInput, ListProjectsInput, UpdateProjectInput } from './schemas.ts'

type Caller = ReturnType<typeof memberOf>

/** Updated timestamps strictly increase, so an `expectedUpdatedAt` guard always sees a change. */
const nextUpdatedAt = (previous: string) => new Date(Math.max(Date.now(), new Date(previous).getTime() + 1)).toISOString()

/** Optional text: trimmed; blank means absent. */
const optionalText = (value: string | null | undefined) => {
  if (value === undefined) return undefined
  const trimmed = value?.trim() ?? ''
  return trimmed === '' ? null : trimmed
}

export async function listProjects(deps: AppDeps, { membership }: Caller, query: ListProjectsInput) {
  const limit = query.limit ?? 50
  const after = decodeCursor(query.cursor, ['string'])
  const rows = await repo.listProjects(deps.database.db, membership.workspaceId, {
    status: query.status ?? 'active', beforeId: after?.[0] as string | undefined, limit,
  })
  const page = paginate(rows, limit, (row) => [row.id])
  return { projects: page.items.map(presentProject), nextCursor: page.nextCursor }
}

export async function createProject(deps: AppDeps, { actor, membership }: Caller, input: CreateProjectInput) {
  assertTimeZone('timezone', input.timezone)
  const now = nowIso()
  const row: ProjectTable = {
    id: newId('prj'),
    workspace_id: membership.workspaceId,
    name: requiredText('name', input.name),
    objective: optionalText(input.objective) ?? null,
    description: optionalText(input.description) ?? null,
    default_language: canonicalLanguageTag('defaultLanguage', input.defaultLanguage) ?? null,
    timezone: input.timezone ?? null,
    status: 'active',
    created_by: actor.accountId,
    archived_at: null,
    created_at: now,
    updated_at: now,
  }
  await deps.database.db.transaction().execute(async (trx) => {
    await repo.insertProject(trx, row)
    // The creator is the project's first member; the role follows their job role.
    await addProjectMember(deps.events, trx, {
      workspaceId: membership.workspaceId, project: row, accountId: actor.accountId,
      primaryRole: defaultProjectRole(membership.jobRole), addedBy: actor.accountId,
    })
  })
  return presentProject(row)
}

/** The project and its capture sessions (newest first, not archived; read through the sessions module's port). */
export async function getProject(deps: AppDeps, { membership }: Caller, projectId: string) {
  const { db } = deps.database
  const project = await repo.findProject(db, membership.workspaceId, projectId) ?? notFound('project', projectId)
  // The sessions module fills this port when it is registered (it is, in every app).
  const sessions = await deps.ports.projectSessions?.(db, membership.workspaceId, projectId) ?? []
  return { project: presentProject(project), sessions }
}

export async function updateProject(deps: AppDeps, { membership }: Caller, projectId: string, input: UpdateProjectInput) {
  const wanted: Updateable<ProjectTable> = {}
  if (input.name !== undefined) wanted.name = requiredText('name', input.name)
  if (input.objective !== undefined) wanted.objective = optionalText(input.objective)
  if (input.description !== undefined) wanted.description = optionalText(input.description)
  if (input.defaultLanguage !== undefined) {
    wanted.default_language = input.defaultLanguage === null ? null : canonicalLanguageTag('defaultLanguage', input.defaultLanguage)!
  }
  if (input.timezone !== undefined) {
    if (input.timezone !== null) assertTimeZone('timezone', input.timezone)
    wanted.timezone = input.timezone
  }
  if (input.status !== undefined) wanted.status = input.status

  const { db, dialect } = deps.database
  return db.transaction().execute(async (trx) => {
    const current = await repo.findProjectForUpdate(trx, dialect, membership.workspaceId, projectId) ?? notFound('project', projectId)
    if (input.expectedUpdatedAt !== undefined && new Date(input.expectedUpdatedAt).getTime() !== new Date(current.updated_at).getTime()) {
      throw new AppError('conflict', 'The project changed since expectedUpdatedAt; re-read it and retry.', { extra: { updatedAt: current.updated_at } })
    }
    const changes = Object.fromEntries(Object.entries(wanted)
      .filter(([column, value]) => current[column as keyof ProjectTable] !== value)) as Updateable<ProjectTable>
    // A PATCH that changes nothing changes nothing, not even updatedAt.
    if (Object.keys(changes).length === 0) return presentProject(current)
    const updatedAt = nextUpdatedAt(current.updated_at)
    if (changes.status !== undefined) changes.archived_at = changes.status === 'archived' ? updatedAt : null
    changes.updated_at = updatedAt
    await repo.updateProject(trx, membership.workspaceId, projectId, changes)
    return presentProject({ ...current, ...changes } as repo.ProjectRow)
  })
}
