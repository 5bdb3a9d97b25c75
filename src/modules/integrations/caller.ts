// Who is calling and the project they name: shared by connections, access and actions.
import type { AppDeps } from '../../platform/deps.ts'
import { AppError } from '../../platform/http/errors.ts'
import type { memberOf } from '../../platform/http/guards.ts'
import { findProject } from '../projects/index.ts'

export type Caller = ReturnType<typeof memberOf>

/** The project of the caller's workspace, or a 404 naming the field that pointed at it. */
export async function requireProject(deps: AppDeps, workspaceId: string, projectId: string, field = 'projectId') {
  const project = await findProject(deps.database.db, workspaceId, projectId)
  if (!project) throw new AppError('not_found', `No project with id ${projectId}.`, { errors: [{ field, code: 'not_found', message: 'no such project in this workspace' }] })
  return project
}

/** A connection can be used (prepare, approve, execute, field options) only while active. */
export function assertUsable(connection: { alias: string; status: string }) {
  if (connection.status === 'revoked') {
    throw new AppError('connection_revoked', `The connection ${connection.alias} was revoked: its credentials are gone and nothing is sent through it. Connect the tool again and prepare the action anew.`)
  }
  if (connection.status !== 'active') throw new AppError('connection_not_ready', `The connection ${connection.alias} is ${connection.status}.`)
}
