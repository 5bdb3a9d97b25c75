// What the work module offers the integrations module (which owns recommendations, prepared
// actions and executions): reading work objects and work sets, and announcing a change of a work
// set's actions so that its revision, ETag and realtime listeners move on. The work set detail
// asks back through deps.ports.worksetActions (no import the other way).
import type { AppDeps } from '../../platform/deps.ts'
import type { Executor } from '../../platform/realtime/types.ts'
import { announce } from './followups.ts'
import { presentWorkObject } from './presenter.ts'
import * as repo from './repo.ts'

/** A work object of the workspace (proposals included), or undefined. */
export async function readWorkObject(deps: AppDeps, workspaceId: string, workObjectId: string) {
  const row = await repo.findObject(deps.database.db, workspaceId, workObjectId)
  return row ? presentWorkObject(row) : undefined
}

/** A work set of the workspace and its visible work objects, or undefined. */
export async function readWorkSet(deps: AppDeps, workspaceId: string, workSetId: string) {
  const set = await repo.findWorkSet(deps.database.db, workspaceId, workSetId)
  if (!set) return undefined
  const objects = await repo.listSetObjects(deps.database.db, set.id)
  return { id: set.id, sessionId: set.session_id, conversationId: set.conversation_id, workObjects: objects.map(presentWorkObject) }
}

/** Logs `type` on the set's conversation (work channel) and bumps the set's revision, in `executor`. */
export async function announceWorkSetChange(deps: AppDeps, executor: Executor, workSetId: string, type: string, data: Record<string, unknown>) {
  const set = await executor.selectFrom('work_sets').select(['id', 'conversation_id']).where('id', '=', workSetId).executeTakeFirst()
  if (!set) return
  await announce(deps, executor, set, type, data)
}
