// Leases and signed completions: a runner takes the oldest takeable task of its owner and kinds
// (compare and swap, so two runners never hold one task), renews the lease with progress, and
// completes with a result signed by its registered key, which lands on the work object.
import type { AppDeps } from '../../platform/deps.ts'
import type { LocalRunnerKind } from '../../platform/db/tables.ts'
import { AppError, notFound } from '../../platform/http/errors.ts'
import { newId, nowIso, sha256Hex } from '../../platform/ids.ts'
import type { Executor } from '../../platform/realtime/types.ts'
import { addComment, findWorkObject, proposeRevision } from '../work/index.ts'
import { isLeaseLive, presentTask } from './presenter.ts'
import * as repo from './repo.ts'
import type { CompleteBody, ProgressBody, TakeBody } from './schemas.ts'
import { announce, DEFAULT_LEASE_SECONDS, type Caller, type Waker } from './service.ts'

export type { Waker }
import { canonicalJson, resultSha256, verifyCompletion } from './signing.ts'

export const DEFAULT_WAIT_SECONDS = 20
export const MAX_CLOCK_SKEW_MS = 5 * 60_000
const POLL_INTERVAL_MS = 1000
const COMMENT_LIMIT = 8000

/** Wakes long polls of this process when a task of an account becomes takeable. */

export function createWaker(): Waker {
  const waiting = new Map<string, Set<() => void>>()
  return {
    notify(accountId) {
      for (const resume of waiting.get(accountId) ?? []) resume()
    },
    wait(accountId, ms, signal) {
      return new Promise((resolve) => {
        const set = waiting.get(accountId) ?? new Set()
        waiting.set(accountId, set)
        const done = () => {
          clearTimeout(timer)
          signal.removeEventListener('abort', done)
          set.delete(done)
          if (set.size === 0) waiting.delete(accountId)
          resolve()
        }
        const timer = setTimeout(done, ms)
        signal.addEventListener('abort', done)
        set.add(done)
      })
    },
  }
}

const leaseOf = (row: repo.TaskRow) => ({ leaseId: row.lease_id!, attempt: row.attempt, expiresAt: row.lease_expires_at! })

/** One attempt to lease the oldest takeable task: compare and swap, so two runners never hold one task. */
async function leaseNext(deps: AppDeps, runner: repo.RunnerRow, leaseSeconds: number) {
  const kinds = JSON.parse(runner.supported_runners) as LocalRunnerKind[]
  const now = new Date()
  const candidates = await repo.takeableTasks(deps.database.db, runner.workspace_id, runner.account_id, kinds, now.toISOString())
  for (const candidate of candidates) {
    const leased = await deps.database.db.transaction().execute(async (trx) => {
      const row = await repo.updateTaskIf(trx, candidate.id, candidate.version, {
        status: 'leased', runner_id: runner.id, lease_id: newId('lse'), lease_seconds: leaseSeconds,
        lease_expires_at: new Date(now.getTime() + leaseSeconds * 1000).toISOString(), attempt: candidate.attempt + 1,
        progress: null, updated_at: now.toISOString(),
      })
      if (row) await announce(deps, trx, row)
      return row
    })
    if (leased) return leased
  }
  return undefined
}

export async function takeTask(deps: AppDeps, runner: repo.RunnerRow, input: TakeBody, wake: Waker, signal: AbortSignal) {
  const leaseSeconds = input.leaseSeconds ?? DEFAULT_LEASE_SECONDS
  const deadline = Date.now() + (input.waitSeconds ?? DEFAULT_WAIT_SECONDS) * 1000
  await repo.updateRunner(deps.database.db, runner.id, { last_seen_at: nowIso() })
  for (;;) {
    const leased = await leaseNext(deps, runner, leaseSeconds)
    if (leased) {
      const object = await findWorkObject(deps, runner.workspace_id, leased.work_object_id)
      return {
        task: presentTask(leased), lease: leaseOf(leased),
        ...(object ? { workObject: { id: object.id, kind: object.kind, title: object.title, ...(object.summary ? { summary: object.summary } : {}), ...(object.nextStep ? { nextStep: object.nextStep } : {}) } } : {}),
      }
    }
    const left = deadline - Date.now()
    if (left <= 0 || signal.aborted) return {}
    await wake.wait(runner.account_id, Math.min(left, POLL_INTERVAL_MS), signal)
    // Revoked while waiting: the waiting call is already the runner's next call.
    const fresh = await repo.findRunner(deps.database.db, runner.workspace_id, runner.id)
    if (!fresh || fresh.revoked_at !== null) throw new AppError('invalid_runner_token', 'This runner was revoked; pair the runner again.')
  }
}

/** The task as its runner may act on it: in its workspace, of its owner and kinds (404 otherwise). */
async function runnerTask(deps: AppDeps, caller: Caller, runner: repo.RunnerRow | undefined, taskId: string) {
  const task = await repo.findTask(deps.database.db, caller.membership.workspaceId, taskId) ?? notFound('task', taskId)
  if (!runner) throw new AppError('runner_required', 'Only a runner may do this: authenticate with `Authorization: Bearer <runnerToken>`.')
  const kinds = JSON.parse(runner.supported_runners) as string[]
  if (task.owner_account_id !== runner.account_id || !kinds.includes(task.runner_kind)) notFound('task', taskId)
  return task
}

function assertLease(task: repo.TaskRow, runner: repo.RunnerRow, leaseId: string, attempt?: number) {
  const held = task.status === 'leased' && task.runner_id === runner.id && task.lease_id === leaseId && (attempt === undefined || attempt === task.attempt)
  if (!held) throw new AppError('lease_lost', 'This runner does not hold that lease of the task (another attempt holds it, or it is finished).', { extra: { task: presentTask(task) } })
  if (!isLeaseLive(task)) throw new AppError('lease_expired', 'The lease expired and the task went back to the queue; take it again.', { extra: { task: presentTask(task) } })
}

export async function reportProgress(deps: AppDeps, caller: Caller, runner: repo.RunnerRow | undefined, taskId: string, input: ProgressBody) {
  const task = await runnerTask(deps, caller, runner, taskId)
  return deps.database.db.transaction().execute(async (trx) => {
    const current = await repo.lockTask(trx, deps.database.dialect, task.workspace_id, task.id) ?? notFound('task', taskId)
    assertLease(current, runner!, input.leaseId)
    const now = new Date()
    const progress = { message: input.message, ...(input.percent !== undefined ? { percent: input.percent } : {}), at: now.toISOString() }
    const row = await repo.updateTaskIf(trx, current.id, current.version, {
      progress: JSON.stringify(progress), lease_expires_at: new Date(now.getTime() + current.lease_seconds * 1000).toISOString(), updated_at: now.toISOString(),
    })
    if (!row) throw new AppError('lease_lost', 'The task changed meanwhile; its lease may have been taken over.')
    await announce(deps, trx, row)
    return { task: presentTask(row), lease: leaseOf(row) }
  })
}

// ---- signed completion ----

type Completion = { task: ReturnType<typeof presentTask>; landedAs: 'revision-proposal' | 'comment'; revisionId?: string; commentId?: string }

export async function completeTask(deps: AppDeps, caller: Caller, runner: repo.RunnerRow | undefined, taskId: string, input: CompleteBody) {
  const task = await runnerTask(deps, caller, runner, taskId)
  const signed = { taskId: task.id, leaseId: input.leaseId, attempt: input.attempt, resultSha256: resultSha256(input.result), nonce: input.nonce, timestamp: input.timestamp }
  if (!verifyCompletion(runner!.public_signing_key, signed, input.signature)) {
    throw new AppError('completion_signature_invalid', 'The signature does not verify with this runner\'s registered key.')
  }
  const fingerprint = sha256Hex(canonicalJson({ ...signed, signature: input.signature }))
  return deps.database.db.transaction().execute(async (trx): Promise<Completion> => {
    const current = await repo.lockTask(trx, deps.database.dialect, task.workspace_id, task.id) ?? notFound('task', taskId)
    if (current.status === 'completed') {
      // The same completion again (a retry after a lost answer) gets the stored answer.
      if (current.completion_fingerprint === fingerprint) return JSON.parse(current.completion_response!) as Completion
      throw new AppError('task_completed', 'The task was completed already with another result.', { extra: { task: presentTask(current) } })
    }
    const signedAt = Date.parse(input.timestamp)
    if (!Number.isFinite(signedAt) || Math.abs(Date.now() - signedAt) > MAX_CLOCK_SKEW_MS) {
      throw new AppError('clock_skew', 'The completion\'s timestamp is more than 5 minutes from the server\'s clock; sign it again now.', { extra: { serverTime: nowIso() } })
    }
    assertLease(current, runner!, input.leaseId, input.attempt)
    const now = nowIso()
    if (!await repo.useNonce(trx, runner!.id, input.nonce, current.id, now)) {
      throw new AppError('nonce_reused', 'This runner used that nonce before: a completion is signed once, with a fresh nonce.')
    }
    const landed = await land(deps, trx, current, runner!, input.result)
    const values = {
      status: 'completed' as const, result: JSON.stringify(input.result), completion_fingerprint: fingerprint, completed_at: now, updated_at: now,
      lease_expires_at: null, progress: null,
    }
    const answer: Completion = { task: presentTask({ ...current, ...values, completion_response: JSON.stringify(landed) }), ...landed }
    const row = await repo.updateTaskIf(trx, current.id, current.version, { ...values, completion_response: JSON.stringify(answer) })
    if (!row) throw new AppError('conflict', 'The task changed meanwhile; send the completion again.')
    await announce(deps, trx, row)
    return answer
  })
}

/** The result lands on the work object: new content as a revision proposal, anything else as a comment. */
async function land(deps: AppDeps, trx: Executor, task: repo.TaskRow, runner: repo.RunnerRow, result: CompleteBody['result']) {
  if (result.outcome === 'succeeded' && result.proposal) {
    try {
      const proposed = await proposeRevision(deps, trx, { workObjectId: task.work_object_id, title: result.proposal.title, summary: result.proposal.summary ?? null, confidence: 1 })
      if (proposed) return { landedAs: 'revision-proposal' as const, revisionId: proposed.revision.id }
    } catch (error) {
      // The object is itself still a proposal: it takes no revision proposal, so the result becomes a comment.
      if (!(error instanceof AppError && error.code === 'proposal_pending')) throw error
    }
  }
  const heading = `${runner.display_name} (${task.runner_kind}) ${result.outcome === 'succeeded' ? 'finished' : 'failed'}` +
    (result.exitCode !== undefined ? ` with exit code ${result.exitCode}` : '')
  const output = result.output.trim() || '(no output)'
  const body = `${heading}:\n\n${output.length > COMMENT_LIMIT ? `${output.slice(0, COMMENT_LIMIT)}\n… (truncated)` : output}`
  const comment = await addComment(deps, trx, { workObjectId: task.work_object_id, body, author: { accountId: runner.account_id } })
  return { landedAs: 'comment' as const, commentId: comment.id }
}
