// Kysely queries of the integrations module; every lookup is scoped to a workspace.
import type { Insertable, Selectable, Updateable } from 'kysely'
import { forUpdate } from '../../platform/db/dialect.ts'
import type { DialectName } from '../../platform/db/index.ts'
import type {
  ActionRecommendationTable, ExternalActionTable, ExternalExecutionTable, IntegrationAccessTable, IntegrationConnectionTable,
} from '../../platform/db/tables.ts'
import { monotonicFactory } from 'ulid'
import { nowIso } from '../../platform/ids.ts'
import type { Executor } from '../../platform/realtime/types.ts'

export type ConnectionRow = Selectable<IntegrationConnectionTable>
export type AccessRow = Selectable<IntegrationAccessTable>
export type RecommendationRow = Selectable<ActionRecommendationTable>
export type ActionRow = Selectable<ExternalActionTable>
export type ExecutionRow = Selectable<ExternalExecutionTable>

// ---- connections ----

export const insertConnection = (db: Executor, row: Insertable<IntegrationConnectionTable>) =>
  db.insertInto('integration_connections').values(row).execute()

export const findConnection = (db: Executor, workspaceId: string, id: string) =>
  db.selectFrom('integration_connections').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst()

export const findConnectionById = (db: Executor, id: string) =>
  db.selectFrom('integration_connections').selectAll().where('id', '=', id).executeTakeFirst()

export const listConnections = (db: Executor, workspaceId: string, ids: string[]) => ids.length === 0
  ? Promise.resolve([] as ConnectionRow[])
  : db.selectFrom('integration_connections').selectAll().where('workspace_id', '=', workspaceId).where('id', 'in', ids).execute()

/**
 * Updates a connection unless it was revoked (revocation is final: a token refresh or an OAuth
 * callback that finishes after it must not store secrets again). Answers whether a row changed.
 */
export async function updateConnection(db: Executor, id: string, values: Updateable<IntegrationConnectionTable>) {
  const result = await db.updateTable('integration_connections').set(values).where('id', '=', id).where('status', '!=', 'revoked').executeTakeFirst()
  return Number(result.numUpdatedRows) > 0
}

// ---- access ----

export const findAccess = (db: Executor, projectId: string) =>
  db.selectFrom('integration_access').selectAll().where('project_id', '=', projectId).executeTakeFirst()

export const findAccessForUpdate = (db: Executor, dialect: DialectName, projectId: string) =>
  forUpdate(dialect, db.selectFrom('integration_access').selectAll().where('project_id', '=', projectId)).executeTakeFirst()

export const listWorkspaceAccess = (db: Executor, workspaceId: string) =>
  db.selectFrom('integration_access').selectAll().where('workspace_id', '=', workspaceId).orderBy('project_id').execute()

export async function saveAccess(db: Executor, row: Insertable<IntegrationAccessTable>) {
  await db.insertInto('integration_access').values(row).onConflict((oc) => oc.column('project_id').doUpdateSet({
    connection_ids: row.connection_ids, action_ids: row.action_ids, grants: row.grants, updated_by: row.updated_by, updated_at: row.updated_at,
  })).execute()
}

// ---- recommendations ----

export const findRecommendation = (db: Executor, workspaceId: string, id: string) =>
  db.selectFrom('action_recommendations').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst()

export const listObjectRecommendations = (db: Executor, workObjectId: string) =>
  db.selectFrom('action_recommendations').selectAll().where('work_object_id', '=', workObjectId).orderBy('id').execute()

export const listSetRecommendations = (db: Executor, workSetId: string) =>
  db.selectFrom('action_recommendations').selectAll().where('work_set_id', '=', workSetId).orderBy('id').execute()

export const insertRecommendation = (db: Executor, row: Insertable<ActionRecommendationTable>) =>
  db.insertInto('action_recommendations').values(row).onConflict((oc) => oc.columns(['work_object_id', 'action_id']).doNothing()).execute()

export const updateRecommendation = (db: Executor, id: string, values: Updateable<ActionRecommendationTable>) =>
  db.updateTable('action_recommendations').set(values).where('id', '=', id).execute()

/** Marks the recommendation prepared only if nobody changed it since it was read (two prepares at once: one wins). */
export async function claimRecommendation(db: Executor, read: Pick<RecommendationRow, 'id' | 'state' | 'updated_at'>, now: string): Promise<boolean> {
  const result = await db.updateTable('action_recommendations').set({ state: 'prepared', updated_at: now })
    .where('id', '=', read.id).where('state', '=', read.state).where('updated_at', '=', read.updated_at).executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}

// ---- prepared actions ----

export const insertAction = (db: Executor, row: Insertable<ExternalActionTable>) => db.insertInto('external_actions').values(row).execute()

export const findAction = (db: Executor, workspaceId: string, id: string) =>
  db.selectFrom('external_actions').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst()

export const lockAction = (db: Executor, dialect: DialectName, workspaceId: string, id: string) =>
  forUpdate(dialect, db.selectFrom('external_actions').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', id)).executeTakeFirst()

export const findActionById = (db: Executor, id: string) =>
  db.selectFrom('external_actions').selectAll().where('id', '=', id).executeTakeFirst()

export const updateAction = (db: Executor, id: string, values: Updateable<ExternalActionTable>) =>
  db.updateTable('external_actions').set(values).where('id', '=', id).execute()

/** Actions prepared from this recommendation that have not run yet (prepared or approved). */
export const listPendingActionsOf = (db: Executor, recommendationId: string) =>
  db.selectFrom('external_actions').selectAll().where('recommendation_id', '=', recommendationId).where('state', 'in', ['prepared', 'approved']).execute()

/** The recommendation's actions that are neither failed nor superseded: waiting, executing or done. */
export const liveActionsOf = (db: Executor, recommendationId: string) =>
  db.selectFrom('external_actions').select('id').where('recommendation_id', '=', recommendationId).where('state', 'not in', ['failed', 'superseded']).execute()

/** Marks pending actions superseded and voids their approvals; answers how many moved. */
export async function supersedeActions(db: Executor, ids: string[], now: string) {
  if (ids.length === 0) return 0
  const result = await db.updateTable('external_actions').set({ state: 'superseded', approval_token_hash: null, approval_expires_at: null, updated_at: now })
    .where('id', 'in', ids).where('state', 'in', ['prepared', 'approved']).executeTakeFirst()
  return Number(result.numUpdatedRows)
}

export const listSetActions = (db: Executor, workSetId: string) =>
  db.selectFrom('external_actions').selectAll().where('work_set_id', '=', workSetId).orderBy('id').execute()

// ---- executions ----

export const insertExecution = (db: Executor, row: Insertable<ExternalExecutionTable>) => db.insertInto('external_executions').values(row).execute()

export const findExecution = (db: Executor, workspaceId: string, id: string) =>
  db.selectFrom('external_executions').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst()

export const findExecutionById = (db: Executor, id: string) =>
  db.selectFrom('external_executions').selectAll().where('id', '=', id).executeTakeFirst()

export const findExecutionOfAction = (db: Executor, actionRowId: string) =>
  db.selectFrom('external_executions').selectAll().where('action_row_id', '=', actionRowId).executeTakeFirst()

export const listExecutionsOfActions = (db: Executor, actionRowIds: string[]) => actionRowIds.length === 0
  ? Promise.resolve([] as ExecutionRow[])
  : db.selectFrom('external_executions').selectAll().where('action_row_id', 'in', actionRowIds).orderBy('id').execute()

export const updateExecution = (db: Executor, id: string, values: Updateable<ExternalExecutionTable>) =>
  db.updateTable('external_executions').set(values).where('id', '=', id).execute()

/** Ids of history rows sort in the order they were written (monotonic within this process). */
const nextHistoryId = monotonicFactory()

export const appendExecutionEvent = (db: Executor, executionId: string, state: string, detail: string | null) =>
  db.insertInto('external_execution_events').values({ id: `exv_${nextHistoryId()}`, execution_id: executionId, state, detail, at: nowIso() }).execute()

export const listExecutionEvents = (db: Executor, executionId: string) =>
  db.selectFrom('external_execution_events').selectAll().where('execution_id', '=', executionId).orderBy('id').execute()
