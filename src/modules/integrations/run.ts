// The durable execution job. Each attempt marks `call_started_at` (committed) before it calls the
// provider, and clears it with the outcome. A run that finds it already set follows the action's
// retry rule: `reconcile` looks for what the earlier call made before calling again, `idempotent`
// calls again, `once` gives up (the provider may or may not have acted). Retries happen only for
// 429 and 5xx (and network failures); any other refusal fails the execution at once.
import type { AppDeps } from '../../platform/deps.ts'
import { defineJob, enqueue, type JobContext } from '../../platform/jobs/index.ts'
import type { WorkObjectChangeListener } from '../../platform/ports.ts'
import { nowIso } from '../../platform/ids.ts'
import type { Executor } from '../../platform/realtime/types.ts'
import { announceWorkSetChange, recordExternalReceipt } from '../work/index.ts'
import { EXECUTE_JOB } from './actions.ts'
import { connectionContext, REFRESH_JOB, refreshConnection } from './connections.ts'
import { actionOf } from './connectors/index.ts'
import { ProviderError, type Receipt } from './connectors/types.ts'
import * as repo from './repo.ts'
import { rotateSecrets } from './secrets.ts'
import { redraftObjectRecommendations } from './recommendations.ts'

export const ROTATE_JOB = 'integrations.rotate-secrets'
export const REDRAFT_JOB = 'integrations.redraft'

const MAX_ATTEMPTS = 6
/** A provider's Retry-After is honoured up to this long; a longer one waits this long (and may be refused again). */
export const MAX_RETRY_AFTER_MS = 10 * 60_000
const MIN_RETRY_MS = 500

/**
 * The delay before the next attempt that a failure asks for: a retryable provider refusal (429,
 * 5xx) that carried Retry-After waits that long, bounded by MAX_RETRY_AFTER_MS; anything else
 * follows the job's exponential backoff. Whether there is a next attempt at all is runExecution's
 * rule (429/5xx only; after a call that may have reached the provider, only for idempotent or
 * reconcilable actions).
 */
export function retryDelayOf(error: unknown): number | undefined {
  if (!(error instanceof ProviderError) || !error.retryable || error.retryAfterMs === undefined) return undefined
  return Math.min(MAX_RETRY_AFTER_MS, Math.max(MIN_RETRY_MS, error.retryAfterMs))
}

async function finish(deps: AppDeps, execution: repo.ExecutionRow, action: repo.ActionRow, outcome: { receipt: Receipt } | { error: string }) {
  const now = nowIso()
  const succeeded = 'receipt' in outcome
  await deps.database.db.transaction().execute(async (trx: Executor) => {
    // Fenced on the state: a duplicate run that lost its lease cannot write a second outcome.
    const result = await trx.updateTable('external_executions').set({
      state: succeeded ? 'succeeded' : 'failed', call_started_at: null, updated_at: now, finished_at: now,
      receipt: succeeded ? JSON.stringify(outcome.receipt) : null, error: succeeded ? null : outcome.error.slice(0, 1000),
    }).where('id', '=', execution.id).where('state', 'in', ['queued', 'running']).executeTakeFirst()
    if (Number(result.numUpdatedRows) === 0) return
    await repo.appendExecutionEvent(trx, execution.id, succeeded ? 'succeeded' : 'failed',
      succeeded ? JSON.stringify({ externalId: outcome.receipt.externalId, url: outcome.receipt.url }) : outcome.error.slice(0, 1000))
    await repo.updateAction(trx, action.id, { state: succeeded ? 'succeeded' : 'failed', updated_at: now })
    if (succeeded && action.work_object_id) {
      // The receipt goes onto the work object itself (its externalRefs and activity), in this transaction.
      const { receipt } = outcome
      await recordExternalReceipt(deps, trx, {
        workspaceId: action.workspace_id, workObjectId: action.work_object_id, actorId: execution.created_by,
        ref: {
          provider: action.action_id.split('.')[0]!, externalId: receipt.externalId, ...(receipt.url ? { url: receipt.url } : {}),
          ...(receipt.summary ? { summary: receipt.summary.slice(0, 500) } : {}), actionId: action.id, executionId: execution.id, at: now,
        },
      })
    }
    if (action.work_set_id) {
      await announceWorkSetChange(deps, trx, action.work_set_id, 'execution.updated', {
        executionId: execution.id, actionId: action.id, workObjectId: action.work_object_id, executionState: succeeded ? 'succeeded' : 'failed',
        ...(succeeded ? { externalId: outcome.receipt.externalId, url: outcome.receipt.url } : {}),
      })
    }
  })
}

async function runExecution(executionId: string, context: JobContext) {
  const { deps } = context
  const { db } = deps.database
  const execution = await repo.findExecutionById(db, executionId)
  if (!execution || execution.state === 'succeeded' || execution.state === 'failed') return
  const action = await repo.findActionById(db, execution.action_row_id)
  const connection = action ? await repo.findConnectionById(db, action.connection_id) : undefined
  const catalog = action ? actionOf(action.action_id) : undefined
  if (!action) return
  if (!connection || !catalog) return finish(deps, execution, action, { error: 'the connection or the action\'s definition no longer exists' })
  const payload = JSON.parse(action.payload) as Record<string, unknown>
  const ids = { actionRowId: action.id, executionId }

  const attempt = execution.attempts + 1
  await db.transaction().execute(async (trx) => {
    await repo.updateExecution(trx, executionId, { state: 'running', attempts: attempt, updated_at: nowIso() })
    await repo.appendExecutionEvent(trx, executionId, 'running', `attempt ${attempt}`)
  })

  let provider
  try {
    provider = await connectionContext(deps, connection, context.signal)
  } catch (error) {
    // A token endpoint that did not answer, or another node still refreshing: try again later.
    const code = (error as { code?: string }).code
    if ((code === 'provider_unavailable' || code === 'connection_not_ready') && connection.status === 'active' && attempt < MAX_ATTEMPTS) throw error
    return finish(deps, execution, action, { error: `connection: ${(error as Error).message}` })
  }

  if (execution.call_started_at !== null) {
    // An earlier attempt may have reached the provider.
    if (catalog.action.retry === 'once') {
      return finish(deps, execution, action, { error: 'outcome_unknown: an earlier attempt may have reached the provider; check it before trying again' })
    }
    if (catalog.action.retry === 'reconcile' && catalog.connector.reconcile) {
      const made = await catalog.connector.reconcile(provider, action.action_id, payload, ids).catch((error: unknown) => {
        if (error instanceof ProviderError && !error.retryable) return undefined
        throw error
      })
      await repo.appendExecutionEvent(db, executionId, 'reconciled', made ? `found ${made.externalId}` : 'nothing made yet')
      if (made) return finish(deps, execution, action, { receipt: made })
    }
  }

  await repo.updateExecution(db, executionId, { call_started_at: nowIso(), updated_at: nowIso() })
  try {
    const receipt = await catalog.connector.execute(provider, action.action_id, payload, ids)
    return finish(deps, execution, action, { receipt })
  } catch (error) {
    const failure = error instanceof ProviderError ? error : new ProviderError((error as Error).message, { retryable: true })
    if (failure.status === 401 && connection.auth_type === 'oauth' && attempt < MAX_ATTEMPTS) {
      // A token revoked early: refresh once and let the retry use it (a 401 was not acted on).
      await repo.updateExecution(db, executionId, { call_started_at: null })
      await refreshConnection(deps, connection.id, true)
      throw failure
    }
    if (!failure.retryable || attempt >= MAX_ATTEMPTS) {
      return finish(deps, execution, action, { error: failure.message })
    }
    // A 429 was refused before anything happened: the next attempt needs no reconciliation.
    if (failure.status === 429) await repo.updateExecution(db, executionId, { call_started_at: null })
    const wait = retryDelayOf(failure)
    await repo.appendExecutionEvent(db, executionId, 'retrying', `${failure.message.slice(0, 500)}${wait !== undefined ? ` (Retry-After: next attempt in ${Math.round(wait / 1000)} s)` : ''}`)
    throw failure
  }
}

export const executeJob = defineJob<{ executionId: string }>({
  name: EXECUTE_JOB,
  maxAttempts: MAX_ATTEMPTS,
  backoff: 1000,
  retryDelay: retryDelayOf,
  handler: ({ executionId }, context) => runExecution(executionId, context),
  async onDead({ executionId }, error, { deps, executor }) {
    const execution = await repo.findExecutionById(executor, executionId)
    const action = execution ? await repo.findActionById(executor, execution.action_row_id) : undefined
    if (!execution || !action || execution.state === 'succeeded' || execution.state === 'failed') return
    const now = nowIso()
    await executor.updateTable('external_executions').set({ state: 'failed', error: error.slice(0, 1000), updated_at: now, finished_at: now })
      .where('id', '=', executionId).execute()
    await repo.appendExecutionEvent(executor, executionId, 'failed', error.slice(0, 1000))
    await repo.updateAction(executor, action.id, { state: 'failed', updated_at: now })
    if (action.work_set_id) {
      await announceWorkSetChange(deps, executor, action.work_set_id, 'execution.updated', { executionId, actionId: action.id, executionState: 'failed' })
    }
  },
})

export const refreshJob = defineJob<{ connectionId: string }>({
  name: REFRESH_JOB,
  maxAttempts: 5,
  backoff: 5000,
  async handler({ connectionId }, { deps }) {
    await refreshConnection(deps, connectionId)
  },
})

export const rotateJob = defineJob<Record<string, never>>({
  name: ROTATE_JOB,
  maxAttempts: 3,
  backoff: 10_000,
  async handler(_payload, { deps, log }) {
    const moved = await rotateSecrets(deps)
    if (moved > 0) log.info({ moved }, 'connection secrets re-encrypted with the newest key')
  },
})

export const redraftJob = defineJob<{ workspaceId: string; workObjectId: string }>({
  name: REDRAFT_JOB,
  maxAttempts: 5,
  backoff: 2000,
  handler: ({ workspaceId, workObjectId }, { deps }) => redraftObjectRecommendations(deps, workspaceId, workObjectId),
})

/**
 * deps.ports.workObjectChanged: a changed work object that has recommendations gets them redrafted
 * after commit (one job per change of the object; a job finding nothing to change changes nothing).
 */
export function scheduleRedraft(): WorkObjectChangeListener {
  return async (executor, change) => {
    const has = await executor.selectFrom('action_recommendations').select('id').where('work_object_id', '=', change.workObjectId).limit(1).executeTakeFirst()
    if (!has) return
    await enqueue(executor, REDRAFT_JOB, { workspaceId: change.workspaceId, workObjectId: change.workObjectId }, { dedupeKey: `${change.workObjectId}|${change.updatedAt}` })
  }
}
