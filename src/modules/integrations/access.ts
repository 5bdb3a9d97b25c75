// Which connections and actions a project may use (PUT /v1/integrations/access). Everything not
// listed is refused. Making a connection in a project adds it, with its actions, to that project's
// access; a manager may then widen, narrow or replace it.
import type { AppDeps } from '../../platform/deps.ts'
import { AppError, badRequest } from '../../platform/http/errors.ts'
import { nowIso } from '../../platform/ids.ts'
import type { Executor } from '../../platform/realtime/types.ts'
import { requireProject, type Caller } from './caller.ts'
import { presentAccess } from './presenter.ts'
import * as repo from './repo.ts'
import type { AccessInput } from './schemas.ts'

type Grant = { connectionId: string; actionIds: string[] }

/** Pure: may a project with this access run `actionId` through `connection`? */
export function allowsAction(access: repo.AccessRow | undefined, connection: Pick<repo.ConnectionRow, 'id' | 'action_ids'>, actionId: string) {
  if (!access) return false
  const connectionIds = JSON.parse(access.connection_ids) as string[]
  const actionIds = JSON.parse(access.action_ids) as string[]
  const grants = JSON.parse(access.grants) as Grant[]
  if (!connectionIds.includes(connection.id) || !actionIds.includes(actionId)) return false
  if (!(JSON.parse(connection.action_ids) as string[]).includes(actionId)) return false
  const narrowed = grants.find((grant) => grant.connectionId === connection.id)
  return narrowed ? narrowed.actionIds.includes(actionId) : true
}

export async function assertAllowed(deps: AppDeps, workspaceId: string, projectId: string, connection: repo.ConnectionRow, actionId: string) {
  if (connection.workspace_id !== workspaceId) throw new AppError('not_found', `No connection with id ${connection.id}.`)
  const access = await repo.findAccess(deps.database.db, projectId)
  if (!allowsAction(access, connection, actionId)) {
    throw new AppError('integration_not_allowed', `Project ${projectId} may not run ${actionId} through ${connection.alias}: see PUT /v1/integrations/access.`)
  }
}

export async function grantOnCreate(deps: AppDeps, trx: Executor, input: { workspaceId: string; projectId: string; connectionId: string; actionIds: string[]; accountId: string }) {
  const current = await repo.findAccessForUpdate(trx, deps.database.dialect, input.projectId)
  const union = (text: string | undefined, more: string[]) => JSON.stringify([...new Set([...(text ? JSON.parse(text) as string[] : []), ...more])])
  await repo.saveAccess(trx, {
    project_id: input.projectId, workspace_id: input.workspaceId,
    connection_ids: union(current?.connection_ids, [input.connectionId]), action_ids: union(current?.action_ids, input.actionIds),
    grants: current?.grants ?? '[]', updated_by: input.accountId, updated_at: nowIso(),
  })
}

export async function setAccess(deps: AppDeps, caller: Caller, input: AccessInput) {
  const workspaceId = caller.membership.workspaceId
  await requireProject(deps, workspaceId, input.projectId)
  const { db, dialect } = deps.database
  const connections = await repo.listConnections(db, workspaceId, input.connectionIds)
  const missing = input.connectionIds.filter((id) => !connections.some((row) => row.id === id))
  if (missing.length > 0) throw badRequest('connectionIds', 'unknown_connection', `no connection ${missing.join(', ')} in this workspace`)
  const grants = input.grants ?? []
  grants.forEach((grant, index) => {
    if (!input.connectionIds.includes(grant.connectionId)) throw badRequest(`grants.${index}.connectionId`, 'not_listed', 'a grant narrows a connection listed in connectionIds')
    if (grant.actionIds.some((id) => !input.actionIds.includes(id))) throw badRequest(`grants.${index}.actionIds`, 'not_listed', 'a grant narrows actions listed in actionIds')
  })
  if (new Set(grants.map((grant) => grant.connectionId)).size !== grants.length) throw badRequest('grants', 'duplicate', 'one grant per connection')
  return db.transaction().execute(async (trx) => {
    const current = await repo.findAccessForUpdate(trx, dialect, input.projectId)
    if (input.expectedUpdatedAt !== undefined && (current?.updated_at ?? null) !== input.expectedUpdatedAt) {
      throw new AppError('conflict', 'The project\'s integration access changed since expectedUpdatedAt; read it again.', { extra: { updatedAt: current?.updated_at ?? null } })
    }
    // Strictly increasing, so an expectedUpdatedAt guard always sees a change.
    const updatedAt = new Date(Math.max(Date.now(), current ? new Date(current.updated_at).getTime() + 1 : 0)).toISOString()
    const row = {
      project_id: input.projectId, workspace_id: workspaceId, connection_ids: JSON.stringify(input.connectionIds),
      action_ids: JSON.stringify(input.actionIds), grants: JSON.stringify(grants), updated_by: caller.actor.accountId, updated_at: updatedAt,
    }
    await repo.saveAccess(trx, row)
    return presentAccess(row)
  })
}
