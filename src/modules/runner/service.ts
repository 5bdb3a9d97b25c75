// Local runners: pairing (a one-time grant, then a runner token), revocation, and the owner's
// confirmation that turns a work object's runner step into a task. Leases and signed completions
// are in leases.ts.
import type { Actor, Membership } from '../../platform/auth/actor.ts'
import { isManager } from '../../platform/auth/policy.ts'
import type { AppDeps } from '../../platform/deps.ts'
import { AppError, badRequest, notFound } from '../../platform/http/errors.ts'
import { newId, newSecretToken, nowIso, sha256Hex } from '../../platform/ids.ts'
import type { Executor } from '../../platform/realtime/types.ts'
import { findWorkObject } from '../work/index.ts'
import { presentRunner, presentTask } from './presenter.ts'
import * as repo from './repo.ts'
import type { CreateGrantBody, CreateTaskBody, RegistrationBody } from './schemas.ts'
import { RUNNER_KINDS } from './schemas.ts'
import { normalizePublicKey } from './signing.ts'

export const GRANT_PREFIX = 'crg_'
export const RUNNER_TOKEN_PREFIX = 'crt_'
export const DEFAULT_GRANT_SECONDS = 600
export const DEFAULT_LEASE_SECONDS = 120

export type Caller = { actor: Actor; membership: Membership }

/** Wakes the long polls of an owner's runners when a task becomes takeable (leases.ts makes one per node). */
export type Waker = { notify(accountId: string): void; wait(accountId: string, ms: number, signal: AbortSignal): Promise<void> }

// ---- pairing ----

export async function createGrant(deps: AppDeps, caller: Caller, input: CreateGrantBody) {
  const token = GRANT_PREFIX + newSecretToken()
  const now = nowIso()
  const expiresAt = new Date(Date.now() + (input.expiresInSeconds ?? DEFAULT_GRANT_SECONDS) * 1000).toISOString()
  const id = newId('rgr')
  await repo.insertGrant(deps.database.db, {
    id, workspace_id: caller.membership.workspaceId, account_id: caller.actor.accountId,
    token_hash: sha256Hex(token), expires_at: expiresAt, used_at: null, runner_id: null, created_at: now,
  })
  return { grantId: id, registrationGrant: token, expiresAt, pairCommand: `confer runner pair --server ${deps.config.publicBase} --grant ${token}` }
}

/** The live grant behind a token (not yet used, not expired), or undefined. */
export async function liveGrant(deps: AppDeps, token: string) {
  if (!token.startsWith(GRANT_PREFIX)) return undefined
  const grant = await repo.findGrantByHash(deps.database.db, sha256Hex(token))
  if (!grant || grant.used_at !== null || Date.parse(grant.expires_at) <= Date.now()) return undefined
  return grant
}

/** The active runner behind a runner token, or undefined (unknown or revoked). */
export async function activeRunner(deps: AppDeps, token: string) {
  if (!token.startsWith(RUNNER_TOKEN_PREFIX)) return undefined
  const runner = await repo.findRunnerByTokenHash(deps.database.db, sha256Hex(token))
  return runner && runner.revoked_at === null ? runner : undefined
}

export async function register(deps: AppDeps, caller: Caller, grant: repo.GrantRow | undefined, input: RegistrationBody) {
  const pem = normalizePublicKey(input.publicSigningKey)
  if (!pem) throw badRequest('publicSigningKey', 'format', 'must be an Ed25519 public key (SPKI PEM, or base64 of its 32 raw bytes)')
  const token = RUNNER_TOKEN_PREFIX + newSecretToken()
  const now = nowIso()
  const row: repo.RunnerRow = {
    id: newId('run'), workspace_id: caller.membership.workspaceId, account_id: caller.actor.accountId,
    installation_id: input.installationId, display_name: input.displayName.trim() || input.installationId,
    supported_runners: JSON.stringify(RUNNER_KINDS.filter((kind) => input.supportedRunners.includes(kind))),
    capabilities: JSON.stringify(input.capabilities), public_signing_key: pem, token_hash: sha256Hex(token),
    created_at: now, last_seen_at: null, revoked_at: null,
  }
  await deps.database.db.transaction().execute(async (trx) => {
    // Single use: of two registrations with one grant, exactly one gets through.
    if (grant && !await repo.useGrant(trx, grant.id, row.id, now)) {
      throw new AppError('invalid_registration_grant', 'This registration grant was used already; create a new one.')
    }
    await repo.revokeInstallation(trx, row.workspace_id, row.account_id, row.installation_id, now)
    await repo.insertRunner(trx, row)
  })
  return { runner: presentRunner(row), runnerToken: token }
}

export async function listRunners(deps: AppDeps, caller: Caller) {
  const rows = await repo.listRunners(deps.database.db, caller.membership.workspaceId, caller.actor.accountId)
  return { runners: rows.map(presentRunner) }
}

/** Revokes a runner: its token answers 401 from its next call on. Its owner or a manager may. */
export async function revokeRunner(deps: AppDeps, caller: Caller, runnerId: string, wake: Waker) {
  const db = deps.database.db
  const row = await repo.findRunner(db, caller.membership.workspaceId, runnerId) ?? notFound('runner', runnerId)
  if (row.account_id !== caller.actor.accountId && !isManager(caller.membership)) {
    throw new AppError('forbidden', 'Only the runner\'s owner or a workspace manager may revoke it.')
  }
  if (row.revoked_at !== null) return presentRunner(row)
  const now = nowIso()
  await repo.updateRunner(db, row.id, { revoked_at: now })
  wake.notify(row.account_id)
  return presentRunner({ ...row, revoked_at: now })
}

// ---- tasks ----

async function workObjectOf(deps: AppDeps, workspaceId: string, id: string) {
  return await findWorkObject(deps, workspaceId, id) ?? notFound('work object', id)
}

export const announce = (deps: AppDeps, trx: Executor, task: repo.TaskRow) =>
  deps.events.append(trx, task.conversation_id, 'workobject.runner_task', { workObjectId: task.work_object_id, task: presentTask(task) })

/**
 * A task for a runner of the work object's owner (the requester's when it has none). The kind is
 * the object's `nextStep` when that is a runner step, else the one asked for. It waits for the
 * owner's confirmation unless the owner asked.
 */
export async function createTask(deps: AppDeps, caller: Caller, input: CreateTaskBody, wake: Waker) {
  const object = await workObjectOf(deps, caller.membership.workspaceId, input.workObjectId)
  const nextStep = object.nextStep as string | undefined
  const kind = input.runnerKind ?? RUNNER_KINDS.find((candidate) => candidate === nextStep)
  if (!kind) throw badRequest('runnerKind', 'required', 'the work object\'s next step is not a runner step: say which runner kind (runner-a or runner-b) should do it')
  const owner = object.ownerId ?? caller.actor.accountId
  const byOwner = owner === caller.actor.accountId
  const now = nowIso()
  const row: repo.TaskRow = {
    id: newId('tsk'), workspace_id: caller.membership.workspaceId, work_object_id: object.id, conversation_id: object.conversationId,
    runner_kind: kind, owner_account_id: owner, requested_by: caller.actor.accountId, instructions: input.instructions?.trim() || null,
    status: byOwner ? 'queued' : 'awaiting-confirmation', confirmed_by: byOwner ? owner : null, confirmed_at: byOwner ? now : null,
    runner_id: null, lease_id: null, lease_seconds: DEFAULT_LEASE_SECONDS, lease_expires_at: null, attempt: 0, version: 0,
    progress: null, result: null, completion_fingerprint: null, completion_response: null, completed_at: null, created_at: now, updated_at: now,
  }
  await deps.database.db.transaction().execute(async (trx) => {
    await repo.insertTask(trx, row)
    await announce(deps, trx, row)
  })
  if (byOwner) wake.notify(owner)
  return presentTask(row)
}

export async function confirmTask(deps: AppDeps, caller: Caller, taskId: string, wake: Waker) {
  const db = deps.database.db
  const task = await repo.findTask(db, caller.membership.workspaceId, taskId) ?? notFound('task', taskId)
  if (task.owner_account_id !== caller.actor.accountId) throw new AppError('forbidden', 'Only the owner whose runner would do this task may confirm it.')
  if (task.status !== 'awaiting-confirmation') {
    throw new AppError('conflict', `The task is ${presentTask(task).status}, not awaiting confirmation.`, { extra: { task: presentTask(task) } })
  }
  const now = nowIso()
  const updated = await db.transaction().execute(async (trx) => {
    const row = await repo.updateTaskIf(trx, task.id, task.version, { status: 'queued', confirmed_by: caller.actor.accountId, confirmed_at: now, updated_at: now })
    if (!row) throw new AppError('conflict', 'The task changed meanwhile; read it again.')
    await announce(deps, trx, row)
    return row
  })
  wake.notify(updated.owner_account_id)
  return presentTask(updated)
}

export async function getTask(deps: AppDeps, caller: Caller, taskId: string) {
  return presentTask(await repo.findTask(deps.database.db, caller.membership.workspaceId, taskId) ?? notFound('task', taskId))
}

export async function listTasks(deps: AppDeps, caller: Caller, workObjectId: string | undefined) {
  if (workObjectId !== undefined) await workObjectOf(deps, caller.membership.workspaceId, workObjectId)
  const rows = await repo.listTasks(deps.database.db, caller.membership.workspaceId, { workObjectId, accountId: caller.actor.accountId })
  return { tasks: rows.map((row) => presentTask(row)) }
}

/** Cancels a task that is not completed: the owner, the requester or a manager. A runner holding it loses its lease. */
export async function cancelTask(deps: AppDeps, caller: Caller, taskId: string) {
  const db = deps.database.db
  const task = await repo.findTask(db, caller.membership.workspaceId, taskId) ?? notFound('task', taskId)
  const me = caller.actor.accountId
  if (task.owner_account_id !== me && task.requested_by !== me && !isManager(caller.membership)) {
    throw new AppError('forbidden', 'Only the task\'s owner, its requester or a workspace manager may cancel it.')
  }
  if (task.status === 'cancelled') return presentTask(task)
  if (task.status === 'completed') throw new AppError('task_completed', 'The task is completed; its result stays on the work object.', { extra: { task: presentTask(task) } })
  const now = nowIso()
  return db.transaction().execute(async (trx) => {
    const row = await repo.updateTaskIf(trx, task.id, task.version, { status: 'cancelled', lease_expires_at: null, updated_at: now })
    if (!row) throw new AppError('conflict', 'The task changed meanwhile; read it again.')
    await announce(deps, trx, row)
    return presentTask(row)
  })
}
