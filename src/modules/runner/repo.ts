// Kysely queries of grants, runners, tasks and completion nonces. Every lookup a caller can reach
// is scoped to a workspace (or to a hashed token).
import type { Insertable, Selectable, Updateable } from 'kysely'
import { forUpdate } from '../../platform/db/dialect.ts'
import type { DialectName } from '../../platform/db/index.ts'
import type { LocalRunnerKind, LocalRunnerTable, RunnerGrantTable, RunnerTaskTable } from '../../platform/db/tables.ts'
import type { Executor } from '../../platform/realtime/types.ts'

export type GrantRow = Selectable<RunnerGrantTable>
export type RunnerRow = Selectable<LocalRunnerTable>
export type TaskRow = Selectable<RunnerTaskTable>

// ---- grants ----

export const insertGrant = (db: Executor, row: Insertable<RunnerGrantTable>) => db.insertInto('runner_grants').values(row).execute()

export const findGrantByHash = (db: Executor, hash: string) =>
  db.selectFrom('runner_grants').selectAll().where('token_hash', '=', hash).executeTakeFirst()

/** Marks the grant used by `runnerId`; false when it was used meanwhile (single use). */
export async function useGrant(db: Executor, id: string, runnerId: string, now: string): Promise<boolean> {
  const result = await db.updateTable('runner_grants').set({ used_at: now, runner_id: runnerId })
    .where('id', '=', id).where('used_at', 'is', null).executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}

// ---- runners ----

export const insertRunner = (db: Executor, row: Insertable<LocalRunnerTable>) => db.insertInto('local_runners').values(row).execute()

export const findRunnerByTokenHash = (db: Executor, hash: string) =>
  db.selectFrom('local_runners').selectAll().where('token_hash', '=', hash).executeTakeFirst()

export const findRunner = (db: Executor, workspaceId: string, id: string) =>
  db.selectFrom('local_runners').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst()

export const listRunners = (db: Executor, workspaceId: string, accountId: string) =>
  db.selectFrom('local_runners').selectAll().where('workspace_id', '=', workspaceId).where('account_id', '=', accountId)
    .orderBy('created_at', 'desc').orderBy('id', 'desc').execute()

export const updateRunner = (db: Executor, id: string, values: Updateable<LocalRunnerTable>) =>
  db.updateTable('local_runners').set(values).where('id', '=', id).execute()

/** Revokes the account's other active runners of the same installation (a re-registration rotates). */
export const revokeInstallation = (db: Executor, workspaceId: string, accountId: string, installationId: string, now: string) =>
  db.updateTable('local_runners').set({ revoked_at: now })
    .where('workspace_id', '=', workspaceId).where('account_id', '=', accountId)
    .where('installation_id', '=', installationId).where('revoked_at', 'is', null).execute()

// ---- tasks ----

export const insertTask = (db: Executor, row: Insertable<RunnerTaskTable>) => db.insertInto('runner_tasks').values(row).execute()

export const findTask = (db: Executor, workspaceId: string, id: string) =>
  db.selectFrom('runner_tasks').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst()

export const lockTask = (db: Executor, dialect: DialectName, workspaceId: string, id: string) =>
  forUpdate(dialect, db.selectFrom('runner_tasks').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', id)).executeTakeFirst()

export function listTasks(db: Executor, workspaceId: string, filter: { workObjectId?: string; accountId: string }) {
  let query = db.selectFrom('runner_tasks').selectAll().where('workspace_id', '=', workspaceId)
  query = filter.workObjectId !== undefined
    ? query.where('work_object_id', '=', filter.workObjectId)
    : query.where((eb) => eb.or([eb('owner_account_id', '=', filter.accountId), eb('requested_by', '=', filter.accountId)]))
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(200).execute()
}

/** Tasks a runner of `accountId` could take now: queued, or leased with a lapsed lease; oldest first. */
export const takeableTasks = (db: Executor, workspaceId: string, accountId: string, kinds: LocalRunnerKind[], now: string) =>
  db.selectFrom('runner_tasks').selectAll()
    .where('workspace_id', '=', workspaceId).where('owner_account_id', '=', accountId)
    .where('runner_kind', 'in', kinds)
    .where((eb) => eb.or([eb('status', '=', 'queued'), eb.and([eb('status', '=', 'leased'), eb('lease_expires_at', '<', now)])]))
    .orderBy('created_at', 'asc').orderBy('id', 'asc').limit(10).execute()

/** Compare and swap on `version`: the update happens only if nobody changed the task since it was read. */
export async function updateTaskIf(db: Executor, id: string, version: number, values: Updateable<RunnerTaskTable>): Promise<TaskRow | undefined> {
  return db.updateTable('runner_tasks').set({ ...values, version: version + 1 })
    .where('id', '=', id).where('version', '=', version).returningAll().executeTakeFirst()
}

// ---- nonces ----

/** Records the nonce; false when this runner used it before. */
export async function useNonce(db: Executor, runnerId: string, nonce: string, taskId: string, now: string): Promise<boolean> {
  const result = await db.insertInto('runner_nonces').values({ runner_id: runnerId, nonce, task_id: taskId, created_at: now })
    .onConflict((oc) => oc.columns(['runner_id', 'nonce']).doNothing()).executeTakeFirst()
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1
}
