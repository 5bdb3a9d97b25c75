// Agent tools (each permitted (action, connection) pair as a tool with a JSON Schema input; calling
// one only prepares it), field options from the live connection, the recommendation → prepare
// step, and what this module offers others through ports: a work set's actions and executions,
// and read-only search of a project's connected tools (external context).
import type { AppDeps } from '../../platform/deps.ts'
import { AppError, badRequest, notFound } from '../../platform/http/errors.ts'
import type { ExternalContextQuery, ExternalItem } from '../../platform/ports.ts'
import type { Executor } from '../../platform/realtime/types.ts'
import { allowsAction, assertAllowed } from './access.ts'
import { prepareAction } from './actions.ts'
import { connectionContext, requireProject, type Caller } from './connections.ts'
import { actionOf, connectorOf } from './connectors/index.ts'
import { ProviderError } from './connectors/types.ts'
import { presentAction, presentExecution, presentRecommendedAction } from './presenter.ts'
import { findRecommendationOf } from './recommendations.ts'
import * as repo from './repo.ts'
import type { FieldOptionsInput } from './schemas.ts'

const toolName = (actionId: string, connectionId: string) => `${actionId.replace('.', '_')}__${connectionId}`

function parseToolName(name: string) {
  const match = /^([a-z]+)_([a-z_]+)__(con_[0-9A-Z]{26})$/.exec(name)
  return match ? { actionId: `${match[1]}.${match[2]}`, connectionId: match[3]! } : undefined
}

export async function listExternalTools(deps: AppDeps, caller: Caller) {
  const workspaceId = caller.membership.workspaceId
  const { db } = deps.database
  const accessRows = await repo.listWorkspaceAccess(db, workspaceId)
  const connectionIds = [...new Set(accessRows.flatMap((row) => JSON.parse(row.connection_ids) as string[]))]
  const connections = (await repo.listConnections(db, workspaceId, connectionIds)).filter((row) => row.status === 'active')
  const tools = new Map<string, { name: string; title: string; description: string; actionId: string; actionVersion: number; connectionId: string; projectIds: string[]; inputSchema: Record<string, unknown> }>()
  for (const connection of connections.sort((a, b) => a.id.localeCompare(b.id))) {
    for (const actionId of JSON.parse(connection.action_ids) as string[]) {
      const catalog = actionOf(actionId)
      const projectIds = accessRows.filter((row) => allowsAction(row, connection, actionId)).map((row) => row.project_id)
      if (!catalog || projectIds.length === 0) continue
      const name = toolName(actionId, connection.id)
      tools.set(name, {
        name, title: `${catalog.action.title} (${connection.alias})`,
        description: `${catalog.action.description} Calling it prepares the action; a person must approve it before anything is sent.`,
        actionId, actionVersion: catalog.action.version, connectionId: connection.id, projectIds,
        inputSchema: JSON.parse(JSON.stringify(catalog.action.input)) as Record<string, unknown>,
      })
    }
  }
  return { tools: [...tools.values()] }
}

export async function callExternalTool(deps: AppDeps, caller: Caller, name: string, body: { input: Record<string, unknown>; projectId?: string | undefined }) {
  const parsed = parseToolName(name) ?? notFound('tool', name)
  const connection = await repo.findConnection(deps.database.db, caller.membership.workspaceId, parsed.connectionId) ?? notFound('tool', name)
  if (!actionOf(parsed.actionId) || !(JSON.parse(connection.action_ids) as string[]).includes(parsed.actionId)) notFound('tool', name)
  const projectId = body.projectId ?? connection.project_id
  return prepareAction(deps, caller, { projectId, connectionId: connection.id, actionId: parsed.actionId, input: body.input })
}

export async function prepareRecommendation(deps: AppDeps, caller: Caller, recommendationId: string, body: { connectionId?: string | undefined; input?: Record<string, unknown> | undefined }) {
  const recommendation = await findRecommendationOf(deps, caller, recommendationId)
  // Prepared, but every action prepared from it failed when sent (the receiver was down, a bad URL): it
  // may be prepared again. Refreshing does not reopen it (an action that ran keeps its recommendation),
  // so before, a failed sending could never be retried.
  const retry = recommendation.state === 'prepared' && (await repo.liveActionsOf(deps.database.db, recommendation.id)).length === 0
  if (recommendation.state !== 'open' && !retry) {
    throw new AppError('action_state_conflict', `The recommendation is ${recommendation.state}; refresh recommendations for a new one.`, { extra: { state: recommendation.state } })
  }
  const connectionId = body.connectionId ?? recommendation.connection_id
  if (!connectionId || !recommendation.project_id) throw new AppError('recommendation_incomplete', 'The recommendation has no connection or project: pass connectionId.')
  const input = { ...(JSON.parse(recommendation.input) as Record<string, unknown>), ...(body.input ?? {}) }
  return prepareAction(deps, caller, { projectId: recommendation.project_id, connectionId, actionId: recommendation.action_id, input, recommendation })
}

function providerProblem(error: unknown): never {
  if (error instanceof ProviderError) {
    if (error.retryable) throw new AppError('provider_unavailable', `The provider did not answer: ${error.message}`)
    throw new AppError('provider_refused', `The provider refused: ${error.message}`)
  }
  throw error
}

export async function fieldOptions(deps: AppDeps, caller: Caller, input: FieldOptionsInput) {
  const workspaceId = caller.membership.workspaceId
  await requireProject(deps, workspaceId, input.projectId)
  const connection = await repo.findConnection(deps.database.db, workspaceId, input.connectionId) ?? notFound('connection', input.connectionId)
  const catalog = actionOf(input.actionId)!
  if (catalog.connector.service !== connection.service) throw badRequest('actionId', 'not_of_service', `${input.actionId} is not an action of ${connection.service}`)
  await assertAllowed(deps, workspaceId, input.projectId, connection, input.actionId)
  if (!catalog.action.optionFields.includes(input.field.name) || !catalog.connector.fieldOptions) {
    throw badRequest('field.name', 'no_options', `${input.actionId} offers choices for: ${catalog.action.optionFields.join(', ') || 'no field'}`)
  }
  const context = await connectionContext(deps, connection)
  const page = await catalog.connector.fieldOptions(context, input.actionId, { name: input.field.name, values: input.field.values ?? {} }, {
    query: input.query ?? '', cursor: input.cursor,
  }).catch(providerProblem)
  return { field: input.field.name, options: page.options, sourceActionId: input.actionId, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) }
}

/** Port for the work set detail: recommended and prepared actions, and their executions. */
export async function worksetActions(executor: Executor, workSetId: string) {
  const [recommendations, actions] = await Promise.all([repo.listSetRecommendations(executor, workSetId), repo.listSetActions(executor, workSetId)])
  const executions = await repo.listExecutionsOfActions(executor, actions.map((row) => row.id))
  const byAction = new Map(executions.map((row) => [row.action_row_id, row]))
  const histories = await Promise.all(executions.map((row) => repo.listExecutionEvents(executor, row.id)))
  return {
    actions: [
      ...recommendations.filter((row) => row.state === 'open').map(presentRecommendedAction),
      ...actions.map((row) => presentAction(row, byAction.get(row.id))),
    ] as Record<string, unknown>[],
    executions: executions.map((row, index) => presentExecution(row, actions.find((action) => action.id === row.action_row_id)!, histories[index]!)) as Record<string, unknown>[],
  }
}

/** Port for the memory module: read-only search over the connections a project may use. */
export function externalContextSource(deps: AppDeps) {
  return async (query: ExternalContextQuery): Promise<{ items: ExternalItem[]; connectionIds: string[] }> => {
    const { db } = deps.database
    const access = await repo.findAccess(db, query.projectId)
    if (!access || access.workspace_id !== query.workspaceId) return { items: [], connectionIds: [] }
    let ids = JSON.parse(access.connection_ids) as string[]
    if (query.connectionIds) ids = ids.filter((id) => query.connectionIds!.includes(id))
    const connections = (await repo.listConnections(db, query.workspaceId, ids))
      .filter((row) => row.status === 'active' && connectorOf(row.service)?.search)
    const searched: string[] = []
    const items: ExternalItem[] = []
    for (const connection of connections) {
      try {
        const context = await connectionContext(deps, connection, AbortSignal.timeout(10_000))
        items.push(...await connectorOf(connection.service)!.search!(context, query.query, query.limit))
        searched.push(connection.id)
      } catch {
        // One unreachable tool does not hide the others' answers; it is left out of connectionIds.
      }
    }
    return { items: items.slice(0, query.limit), connectionIds: searched }
  }
}
