// Prepare → approve → execute (DESIGN §8). Prepare validates the input against the action's JSON
// Schema and freezes the exact payload and its hash; approve (an edit member) answers a token bound
// to that hash, the connection and the action version; execute spends the token once, in the
// transaction that creates the execution and enqueues its durable job (run.ts).
import type { AppDeps } from '../../platform/deps.ts'
import { AppError, badRequest, notFound } from '../../platform/http/errors.ts'
import { constantTimeEqual, newId, nowIso, sha256Hex } from '../../platform/ids.ts'
import { enqueue } from '../../platform/jobs/index.ts'
import type { Executor } from '../../platform/realtime/types.ts'
import { announceWorkSetChange } from '../work/index.ts'
import { assertAllowed } from './access.ts'
import { canonicalPayload, issueApprovalToken, payloadHashOf, tokenMatches } from './approval.ts'
import { assertUsable } from './caller.ts'
import { assertValid, requireProject, type Caller } from './connections.ts'
import { actionOf } from './connectors/index.ts'
import { presentAction, presentExecution, presentReceipt } from './presenter.ts'
import * as repo from './repo.ts'

export const EXECUTE_JOB = 'integrations.execute'

type PrepareRequest = {
  projectId: string
  connectionId: string
  actionId: string
  input: Record<string, unknown>
  recommendation?: repo.RecommendationRow
}

/** Validates and freezes an action; nothing is sent. */
export async function prepareAction(deps: AppDeps, caller: Caller, request: PrepareRequest) {
  const workspaceId = caller.membership.workspaceId
  const { db } = deps.database
  await requireProject(deps, workspaceId, request.projectId)
  const connection = await repo.findConnection(db, workspaceId, request.connectionId) ?? notFound('connection', request.connectionId)
  const catalog = actionOf(request.actionId) ?? (() => { throw badRequest('actionId', 'unknown_action', `unknown action ${request.actionId}`) })()
  if (catalog.connector.service !== connection.service) throw badRequest('actionId', 'not_of_service', `${request.actionId} is not an action of ${connection.service}`)
  await assertAllowed(deps, workspaceId, request.projectId, connection, request.actionId)
  assertUsable(connection)
  assertValid(catalog.action.input, request.input, 'input')
  const id = newId('act')
  const frozen = catalog.connector.freeze?.(request.actionId, request.input, id) ?? request.input
  const payload = canonicalPayload(frozen)
  const now = nowIso()
  const row: repo.ActionRow = {
    id, workspace_id: workspaceId, project_id: request.projectId, connection_id: connection.id, action_id: request.actionId,
    action_version: catalog.action.version, recommendation_id: request.recommendation?.id ?? null,
    work_set_id: request.recommendation?.work_set_id ?? null, work_object_id: request.recommendation?.work_object_id ?? null,
    payload, payload_hash: payloadHashOf(payload), state: 'prepared', prepared_by: caller.actor.accountId,
    approved_by: null, approved_at: null, approval_token_hash: null, approval_expires_at: null, approval_used_at: null,
    created_at: now, updated_at: now,
  }
  await db.transaction().execute(async (trx) => {
    await repo.insertAction(trx, row)
    if (request.recommendation) {
      // Prepared twice at once (two tabs, a double click): the second finds it changed and prepares nothing.
      if (!(await repo.claimRecommendation(trx, request.recommendation, now))) {
        throw new AppError('action_state_conflict', 'The recommendation was just prepared by another request; refresh to see its prepared action.', { extra: { state: 'prepared' } })
      }
      await announceAction(deps, trx, row, 'action.prepared')
    }
  })
  return presentAction(row)
}

async function announceAction(deps: AppDeps, trx: Executor, row: repo.ActionRow, type: string, extra: Record<string, unknown> = {}) {
  if (!row.work_set_id) return
  await announceWorkSetChange(deps, trx, row.work_set_id, type, { actionId: row.id, workObjectId: row.work_object_id, state: row.state, ...extra })
}

/**
 * Before approving or executing: the action's connection is not revoked, and the action was not
 * superseded by a redraft of its work object (recommendations.ts). Nothing is sent otherwise.
 */
async function assertActionUsable(trx: Executor, row: repo.ActionRow) {
  if (row.state === 'superseded') {
    throw new AppError('action_superseded', 'The work object changed after this action was prepared, so its draft was redrafted: prepare the new recommendation instead.', { extra: { state: row.state } })
  }
  const connection = await repo.findConnectionById(trx, row.connection_id)
  if (!connection || connection.status === 'revoked') assertUsable({ alias: connection?.alias ?? row.connection_id, status: 'revoked' })
}

export async function approveAction(deps: AppDeps, caller: Caller, actionRowId: string, expectedPayloadHash: string) {
  const workspaceId = caller.membership.workspaceId
  const { db, dialect } = deps.database
  return db.transaction().execute(async (trx) => {
    const row = await repo.lockAction(trx, dialect, workspaceId, actionRowId) ?? notFound('action', actionRowId)
    await assertActionUsable(trx, row)
    if (row.state !== 'prepared' && row.state !== 'approved') {
      throw new AppError('action_state_conflict', `The action is ${row.state}; only a prepared action is approved.`, { extra: { state: row.state } })
    }
    if (!constantTimeEqual(expectedPayloadHash, row.payload_hash)) {
      throw new AppError('conflict', 'The payload differs from the one you saw: read the action again and approve what it now says.', { extra: { payloadHash: row.payload_hash } })
    }
    const catalog = actionOf(row.action_id)
    if (!catalog || catalog.action.version !== row.action_version) {
      throw new AppError('action_state_conflict', 'The action\'s definition changed since it was prepared: prepare it again.', { extra: { state: row.state } })
    }
    const now = new Date()
    const expiresAt = new Date(now.getTime() + deps.config.integrations.approvalTtlSeconds * 1000).toISOString()
    // Signed over the hash of the payload as stored, not as remembered: a later change voids it.
    const { token, tokenHash } = issueApprovalToken(deps.secret, {
      actionRowId: row.id, payloadHash: payloadHashOf(row.payload), connectionId: row.connection_id,
      actionId: row.action_id, actionVersion: row.action_version, expiresAt,
    })
    const changes = {
      state: 'approved' as const, approved_by: caller.actor.accountId, approved_at: now.toISOString(),
      approval_token_hash: tokenHash, approval_expires_at: expiresAt, approval_used_at: null, updated_at: now.toISOString(),
    }
    await repo.updateAction(trx, row.id, changes)
    const approved = { ...row, ...changes }
    await announceAction(deps, trx, approved, 'action.approved')
    return { action: presentAction(approved), approvalToken: token, approvalExpiresAt: expiresAt }
  })
}

export async function executeAction(deps: AppDeps, caller: Caller, actionRowId: string, input: { approvalToken: string; expectedPayloadHash?: string | undefined }) {
  const workspaceId = caller.membership.workspaceId
  const { db, dialect } = deps.database
  return db.transaction().execute(async (trx) => {
    const row = await repo.lockAction(trx, dialect, workspaceId, actionRowId) ?? notFound('action', actionRowId)
    await assertActionUsable(trx, row)
    if (!row.approval_token_hash) throw new AppError('approval_required', 'The action has not been approved: POST …/approve first.')
    if (!constantTimeEqual(sha256Hex(input.approvalToken), row.approval_token_hash)) {
      throw new AppError('approval_invalid', 'This approval token is not the action\'s current one.')
    }
    if (row.approval_used_at !== null) throw new AppError('approval_used', 'This approval token was already used: an approval runs once.')
    if (new Date(row.approval_expires_at!).getTime() <= Date.now()) throw new AppError('approval_expired', 'The approval expired: approve the action again.')
    const catalog = actionOf(row.action_id)
    const binding = {
      actionRowId: row.id, payloadHash: payloadHashOf(row.payload), connectionId: row.connection_id,
      actionId: row.action_id, actionVersion: catalog?.action.version ?? -1, expiresAt: row.approval_expires_at!,
    }
    if (!tokenMatches(deps.secret, input.approvalToken, binding) || binding.payloadHash !== row.payload_hash) {
      throw new AppError('approval_void', 'The payload, connection or action version changed after approval: the approval is void.')
    }
    if (input.expectedPayloadHash !== undefined && input.expectedPayloadHash !== row.payload_hash) {
      throw new AppError('conflict', 'The payload differs from expectedPayloadHash.', { extra: { payloadHash: row.payload_hash } })
    }
    const now = nowIso()
    const executionId = newId('exe')
    const execution: repo.ExecutionRow = {
      id: executionId, workspace_id: workspaceId, action_row_id: row.id, state: 'queued', attempts: 0, call_started_at: null,
      receipt: null, error: null, created_by: caller.actor.accountId, created_at: now, updated_at: now, finished_at: null,
    }
    const changes = { state: 'executing' as const, approval_used_at: now, updated_at: now }
    await repo.updateAction(trx, row.id, changes)
    await repo.insertExecution(trx, execution)
    await repo.appendExecutionEvent(trx, executionId, 'queued', null)
    await enqueue(trx, EXECUTE_JOB, { executionId }, { dedupeKey: executionId })
    const executing = { ...row, ...changes }
    await announceAction(deps, trx, executing, 'execution.updated', { executionId, executionState: 'queued' })
    return { action: presentAction(executing, execution), receipt: presentReceipt(execution) }
  })
}

export async function getExecution(deps: AppDeps, caller: Caller, executionId: string) {
  const { db } = deps.database
  const execution = await repo.findExecution(db, caller.membership.workspaceId, executionId) ?? notFound('execution', executionId)
  const action = await repo.findActionById(db, execution.action_row_id) ?? notFound('execution', executionId)
  return presentExecution(execution, action, await repo.listExecutionEvents(db, execution.id))
}
