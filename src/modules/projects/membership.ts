// Project membership: who works on a project and in which roles. Roles select default tools and
// suggestions; they grant nothing (interface §2) — permissions come from the workspace membership.
import type { EventLog } from '../../platform/realtime/types.ts'
import type { AppDeps } from '../../platform/deps.ts'
import { notFound } from '../../platform/http/errors.ts'
import type { memberOf } from '../../platform/http/guards.ts'
import { nowIso } from '../../platform/ids.ts'
import { notify } from '../notifications/index.ts'
import { presentProjectMember } from './presenter.ts'
import * as repo from './repo.ts'
import type { MembershipInput, ProjectRoleValue } from './schemas.ts'

type Caller = ReturnType<typeof memberOf>

const PROJECT_ROLES: readonly string[] = ['product', 'design', 'engineering', 'operations', 'project-management', 'other']

/** A workspace job role that is also a project role becomes the default primary role; else `other`. */
export const defaultProjectRole = (jobRole: string | null | undefined): ProjectRoleValue =>
  jobRole && PROJECT_ROLES.includes(jobRole) ? jobRole as ProjectRoleValue : 'other'

/** Secondary roles without duplicates and without the primary one. */
const secondaryRolesOf = (input: MembershipInput) =>
  [...new Set(input.secondaryRoles ?? [])].filter((role) => role !== input.primaryRole)

/**
 * Adds an account to a project unless it is a member already (its roles then stay), and notifies
 * it when someone else added it. Runs in the caller's transaction. True when it was added.
 */
export async function addProjectMember(events: EventLog, executor: repo.Executor, input: {
  workspaceId: string
  project: { id: string; name: string }
  accountId: string
  primaryRole: ProjectRoleValue
  secondaryRoles?: ProjectRoleValue[]
  addedBy: string
}): Promise<boolean> {
  const now = nowIso()
  const added = await repo.insertProjectMember(executor, {
    project_id: input.project.id, workspace_id: input.workspaceId, account_id: input.accountId,
    primary_role: input.primaryRole, secondary_roles: JSON.stringify(input.secondaryRoles ?? []),
    added_by: input.addedBy, created_at: now, updated_at: now,
  })
  if (added) {
    await notify(events, executor, {
      workspaceId: input.workspaceId, recipientAccountId: input.accountId, kind: 'project.added',
      actorAccountId: input.addedBy, subjectType: 'project', subjectId: input.project.id,
      data: { projectId: input.project.id, projectName: input.project.name },
    })
  }
  return added
}

export async function listProjectMembers(deps: AppDeps, { membership }: Caller, projectId: string) {
  const { db } = deps.database
  await repo.findProject(db, membership.workspaceId, projectId) ?? notFound('project', projectId)
  return (await repo.listProjectMembers(db, membership.workspaceId, projectId)).map(presentProjectMember)
}

/**
 * Sets `accountId`'s roles in the project, adding it when it is not a member yet. The caller's own
 * membership (PUT …/membership) and a colleague's (PUT …/members/{accountId}) both come here.
 */
export async function setProjectMembership(deps: AppDeps, { actor, membership }: Caller, projectId: string, accountId: string, input: MembershipInput) {
  const { workspaceId } = membership
  const secondaryRoles = secondaryRolesOf(input)
  return deps.database.db.transaction().execute(async (trx) => {
    const project = await repo.findProject(trx, workspaceId, projectId) ?? notFound('project', projectId)
    if (!await repo.isWorkspaceMember(trx, workspaceId, accountId)) notFound('member', accountId)
    const added = await addProjectMember(deps.events, trx, {
      workspaceId, project, accountId, primaryRole: input.primaryRole, secondaryRoles, addedBy: actor.accountId,
    })
    if (!added) {
      await repo.updateProjectMemberRoles(trx, projectId, accountId, {
        primary_role: input.primaryRole, secondary_roles: JSON.stringify(secondaryRoles), updated_at: nowIso(),
      })
    }
    return presentProjectMember((await repo.findProjectMember(trx, workspaceId, projectId, accountId))!)
  })
}

export async function leaveProject(deps: AppDeps, { actor, membership }: Caller, projectId: string) {
  const { db } = deps.database
  await repo.findProject(db, membership.workspaceId, projectId) ?? notFound('project', projectId)
  const left = await repo.deleteProjectMember(db, membership.workspaceId, projectId, actor.accountId)
  return { left, projectId }
}

/** Removes an account from every project of a workspace (it left the workspace). */
export const removeFromWorkspaceProjects = (executor: repo.Executor, workspaceId: string, accountId: string) =>
  repo.deleteWorkspaceProjectMemberships(executor, workspaceId, accountId)
