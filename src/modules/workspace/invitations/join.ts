// Joining a workspace through an invitation: the one code path behind POST
// /v1/invitations/{token}/accept and POST /v1/account/bootstrap (which joins by token or by the
// newest pending invitation for the caller's email).
import type { EventLog } from '../../../platform/realtime/types.ts'
import { AppError } from '../../../platform/http/errors.ts'
import { constantTimeEqual, sha256Hex } from '../../../platform/ids.ts'
import { addProjectMember, defaultProjectRole, findProject } from '../../projects/index.ts'
import * as members from '../members/repo.ts'
import { notify } from '../../notifications/index.ts'
import { invitationStatus } from './presenter.ts'
import * as repo from './repo.ts'

export type Joiner = { accountId: string; email: string; name: string }

/**
 * The invitation a token opens, if it can still be used. A token that matches nothing is a plain
 * 404; its holder learns when it was used, revoked or has expired (the token is the permission).
 */
export async function findUsableInvitation(executor: repo.Executor, token: string, now: string): Promise<repo.InvitationRow> {
  const tokenHash = sha256Hex(token)
  const invitation = await repo.findInvitationByTokenHash(executor, tokenHash)
  if (!invitation || !constantTimeEqual(invitation.token_hash, tokenHash)) {
    throw new AppError('not_found', 'No invitation matches this link.')
  }
  const status = invitationStatus(invitation, now)
  if (status === 'accepted') throw new AppError('invitation_used', 'This invitation was already used; an invitation link works once.')
  if (status === 'revoked') throw new AppError('invitation_revoked', 'This invitation was revoked; ask for a new one.')
  if (status === 'expired') throw new AppError('invitation_expired', 'This invitation has expired; ask for it to be sent again.')
  return invitation
}

/**
 * Joins `joiner` to the invitation's workspace with the invited access role, content permission and
 * job role, adds it to the invited project, tells the inviter, and makes the workspace the joiner's
 * active one. Runs in the caller's transaction. An account already in the workspace keeps its membership.
 */
export async function joinByInvitation(events: EventLog, executor: repo.Executor, joiner: Joiner, invitation: repo.InvitationRow, now: string) {
  if (invitation.email !== joiner.email.toLowerCase()) {
    throw new AppError('invitation_email_mismatch', `This invitation was sent to ${invitation.email}; sign in with that address to accept it.`)
  }
  if (!await repo.claimInvitation(executor, invitation.id, joiner.accountId, now)) {
    throw new AppError('invitation_used', 'This invitation was already used; an invitation link works once.')
  }
  const workspaceId = invitation.workspace_id
  await members.insertMembership(executor, {
    workspace_id: workspaceId, account_id: joiner.accountId, access_role: invitation.access_role,
    content_permission: invitation.content_permission, job_role: invitation.job_role, created_at: now, updated_at: now,
  })
  const project = invitation.project_id ? await findProject(executor, workspaceId, invitation.project_id) : undefined
  if (project) {
    await addProjectMember(events, executor, {
      workspaceId, project, accountId: joiner.accountId, primaryRole: defaultProjectRole(invitation.job_role), addedBy: invitation.invited_by,
    })
  }
  await notify(events, executor, {
    workspaceId, recipientAccountId: invitation.invited_by, kind: 'invitation.accepted', actorAccountId: joiner.accountId,
    subjectType: 'invitation', subjectId: invitation.id,
    data: {
      invitationId: invitation.id, accountId: joiner.accountId, name: joiner.name, email: invitation.email,
      ...(project ? { projectId: project.id, projectName: project.name } : {}),
    },
  })
  await members.rememberActiveWorkspace(executor, joiner.accountId, workspaceId, now)
  return { workspaceId, projectId: project?.id }
}
