// Rows → API shapes. A connection's secret columns are never read here: nothing secret can leak.
import type { AccessRow, ActionRow, ConnectionRow, ExecutionRow, RecommendationRow } from './repo.ts'
import { reasonCodeOf } from './reasons.ts'

const opt = <K extends string, V>(key: K, value: V | null | undefined) =>
  (value === null || value === undefined ? {} : { [key]: value }) as { [P in K]?: V }
const parse = <T>(text: string | null): T | undefined => (text === null ? undefined : JSON.parse(text) as T)

export function presentConnection(row: ConnectionRow) {
  return {
    id: row.id, projectId: row.project_id, service: row.service, authType: row.auth_type, status: row.status,
    connectionAlias: row.alias, actionIds: JSON.parse(row.action_ids) as string[], settings: JSON.parse(row.settings) as Record<string, unknown>,
    hasCredential: row.secret_ciphertext !== null,
    ...opt('tokenExpiresAt', row.token_expires_at), ...opt('lastError', row.last_error),
    createdById: row.created_by, createdAt: row.created_at, updatedAt: row.updated_at,
  }
}

export function presentAccess(row: AccessRow) {
  return {
    projectId: row.project_id, connectionIds: JSON.parse(row.connection_ids) as string[], actionIds: JSON.parse(row.action_ids) as string[],
    grants: JSON.parse(row.grants) as { connectionId: string; actionIds: string[] }[], updatedById: row.updated_by, updatedAt: row.updated_at,
  }
}

export function presentRecommendation(row: RecommendationRow) {
  return {
    id: row.id, workSetId: row.work_set_id, workObjectId: row.work_object_id, workObjectRevisionHash: row.work_object_revision_hash,
    ...opt('projectId', row.project_id), ...opt('connectionId', row.connection_id),
    actionId: row.action_id, title: row.title, input: JSON.parse(row.input) as Record<string, unknown>,
    sourceSegmentIds: JSON.parse(row.source_segment_ids) as string[], reason: row.reason, ...opt('reasonCode', reasonCodeOf(row.action_id)), state: row.state,
    createdAt: row.created_at, updatedAt: row.updated_at,
  }
}

export function presentReceipt(row: ExecutionRow) {
  const receipt = parse<{ externalId: string; url?: string; summary?: string }>(row.receipt)
  return {
    executionId: row.id, state: row.state,
    ...opt('externalId', receipt?.externalId), ...opt('url', receipt?.url), ...opt('summary', receipt?.summary),
    ...opt('error', row.error), ...opt('completedAt', row.finished_at),
  }
}

export function presentAction(row: ActionRow, execution?: ExecutionRow) {
  return {
    id: row.id, projectId: row.project_id, connectionId: row.connection_id, actionId: row.action_id, actionVersion: row.action_version,
    ...opt('recommendationId', row.recommendation_id), ...opt('workSetId', row.work_set_id), ...opt('workObjectId', row.work_object_id),
    payload: JSON.parse(row.payload) as Record<string, unknown>, payloadHash: row.payload_hash, state: row.state,
    preparedById: row.prepared_by, ...opt('approvedById', row.approved_by), ...opt('approvedAt', row.approved_at),
    ...opt('approvalExpiresAt', row.approval_used_at ? null : row.approval_expires_at),
    ...(execution ? { receipt: presentReceipt(execution) } : {}),
    createdAt: row.created_at, updatedAt: row.updated_at,
  }
}

/** A recommendation as an ActionV2 of the work set detail: recommended, not yet prepared. */
export function presentRecommendedAction(row: RecommendationRow) {
  return { ...presentRecommendation(row), state: 'recommended' as const, recommendationState: row.state }
}

export function presentExecution(row: ExecutionRow, action: ActionRow, history: { state: string; detail: string | null; at: string }[]) {
  return {
    id: row.id, preparedActionId: action.id, actionId: action.action_id, connectionId: action.connection_id,
    ...opt('workSetId', action.work_set_id), ...opt('workObjectId', action.work_object_id),
    state: row.state, attempts: row.attempts,
    ...(row.state === 'succeeded' ? { receipt: presentReceipt(row) } : {}),
    ...opt('error', row.error),
    history: history.map((entry) => ({ state: entry.state, ...opt('detail', entry.detail), at: entry.at })),
    createdById: row.created_by, createdAt: row.created_at, updatedAt: row.updated_at, ...opt('finishedAt', row.finished_at),
  }
}
