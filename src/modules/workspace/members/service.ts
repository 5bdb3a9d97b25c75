// Workspace member use cases: the member list (with pending invitations), changing a member's
// access role, content permission or job role, and removing a member. Membership changes of one
// workspace are serialised by a lock on its row, so the last-owner rule holds under concurrency.
import type { AppDeps } from '../../../platform/deps.ts'
import type { Membership } from '../../../platform/auth/actor.ts'
import type { DialectName } from '../../../platform/db/index.ts'
import { AppError, notFound } from '../../../platform/http/errors.ts'
import type { memberOf } from '../../../platform/http/guards.ts'
import { nowIso } from '../../../platform/ids.ts'
import { removeFromWorkspaceProjects } from '../../projects/index.ts'
import { presentInvitation } from '../invitations/presenter.ts'
import { listPendingInvitations } from '../invitations/repo.ts'
import type { UpdateMemberInput } from '../schemas.ts'
import { canChangeMember, canRemoveMember, type Verdict } from './policy.ts'
import { presentMember } from './presenter.ts'
import * as repo from './repo.ts'

type Caller = ReturnType<typeof memberOf>

function enforce(verdict: Verdict) {
  if (!verdict.allowed) throw new AppError(verdict.code, verdict.reason)
}

/** The caller's membership as it stands under the workspace lock (a concurrent change may have demoted it). */
async function lockedCaller(trx: repo.Executor, dialect: DialectName, { actor, membership }: Caller): Promise<Membership> {
  await repo.lockWorkspace(trx, dialect, membership.workspaceId)
  const current = await repo.findMember(trx, membership.workspaceId, actor.accountId)
  if (!current) throw new AppError('no_workspace', 'You are no longer a member of this workspace.')
  return { ...membership, accessRole: current.access_role, contentPermission: current.content_permission }
}

export async function listWorkspaceMembers(deps: AppDeps, { membership }: Caller) {
  const { db } = deps.database
  const [members, invitations] = await Promise.all([
    repo.listMembers(db, membership.workspaceId),
    listPendingInvitations(db, membership.workspaceId),
  ])
  return {
    members: members.map((row) => presentMember(deps, row)),
    invitations: invitations.map(presentInvitation),
  }
}

export async function updateWorkspaceMember(deps: AppDeps, caller: Caller, accountId: string, input: UpdateMemberInput) {
  const { db, dialect } = deps.database
  const { workspaceId } = caller.membership
  return db.transaction().execute(async (trx) => {
    const membership = await lockedCaller(trx, dialect, caller)
    const target = await repo.findMember(trx, workspaceId, accountId) ?? notFound('member', accountId)
    enforce(canChangeMember(membership, { accessRole: target.access_role }, input.accessRole, await repo.countOwners(trx, workspaceId)))
    const changes = {
      ...(input.accessRole !== undefined ? { access_role: input.accessRole } : {}),
      ...(input.contentPermission !== undefined ? { content_permission: input.contentPermission } : {}),
      ...(input.jobRole !== undefined ? { job_role: input.jobRole } : {}),
    }
    await repo.updateMembership(trx, workspaceId, accountId, { ...changes, updated_at: nowIso() })
    return presentMember(deps, { ...target, ...changes })
  })
}

export async function removeWorkspaceMember(deps: AppDeps, caller: Caller, accountId: string) {
  const { db, dialect } = deps.database
  const { workspaceId } = caller.membership
  return db.transaction().execute(async (trx) => {
    const membership = await lockedCaller(trx, dialect, caller)
    const target = await repo.findMember(trx, workspaceId, accountId) ?? notFound('member', accountId)
    enforce(canRemoveMember(membership, { accessRole: target.access_role }, await repo.countOwners(trx, workspaceId)))
    await repo.deleteMembership(trx, workspaceId, accountId)
    await removeFromWorkspaceProjects(trx, workspaceId, accountId)
    await repo.forgetActiveWorkspace(trx, accountId, workspaceId, nowIso())
    return { removed: true as const, accountId }
  })
}
