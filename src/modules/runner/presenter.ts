// Rows → API shapes of the runner module. Absent optionals are omitted (DESIGN §3).
import type { LocalRunnerKind } from '../../platform/db/tables.ts'
import type { RunnerRow, TaskRow } from './repo.ts'
import type { TaskResult } from './schemas.ts'
import { keyFingerprint } from './signing.ts'

const opt = <K extends string, V>(key: K, value: V | null | undefined): { [P in K]?: V } =>
  (value === null || value === undefined ? {} : { [key]: value }) as { [P in K]?: V }

export function presentRunner(row: RunnerRow) {
  return {
    id: row.id,
    installationId: row.installation_id,
    displayName: row.display_name,
    supportedRunners: JSON.parse(row.supported_runners) as LocalRunnerKind[],
    capabilities: JSON.parse(row.capabilities) as Record<string, unknown>[],
    signingKeyFingerprint: keyFingerprint(row.public_signing_key),
    ownerId: row.account_id,
    status: row.revoked_at === null ? 'active' as const : 'revoked' as const,
    createdAt: row.created_at,
    ...opt('lastSeenAt', row.last_seen_at),
    ...opt('revokedAt', row.revoked_at),
  }
}

/** A lease that has lapsed shows as queued: the task is back in the queue for any runner to take. */
export const isLeaseLive = (row: TaskRow, now = Date.now()) =>
  row.status === 'leased' && row.lease_expires_at !== null && Date.parse(row.lease_expires_at) > now

export function presentTask(row: TaskRow, now = Date.now()) {
  const lapsed = row.status === 'leased' && !isLeaseLive(row, now)
  const landed = row.completion_response ? (JSON.parse(row.completion_response) as { landedAs: 'revision-proposal' | 'comment' }).landedAs : undefined
  return {
    id: row.id,
    workObjectId: row.work_object_id,
    runnerKind: row.runner_kind,
    status: lapsed ? 'queued' as const : row.status,
    ...opt('instructions', row.instructions),
    ownerId: row.owner_account_id,
    requestedById: row.requested_by,
    ...opt('confirmedAt', row.confirmed_at),
    ...opt('runnerId', row.runner_id),
    attempt: row.attempt,
    ...(row.status === 'leased' && !lapsed ? opt('leaseExpiresAt', row.lease_expires_at) : {}),
    ...opt('progress', row.progress === null ? null : JSON.parse(row.progress) as { message: string; percent?: number; at: string }),
    ...opt('result', row.result === null ? null : JSON.parse(row.result) as TaskResult),
    ...opt('landedAs', landed),
    ...opt('completedAt', row.completed_at),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}
export type PresentedTask = ReturnType<typeof presentTask>
