// Invitation use cases: invite, resend, revoke (managers), the public login intent, and accept.
import type { AppDeps } from '../../../platform/deps.ts'
import type { Actor } from '../../../platform/auth/actor.ts'
import { isUniqueViolation } from '../../../platform/db/dialect.ts'
import { AppError, notFound } from '../../../platform/http/errors.ts'
import type { memberOf } from '../../../platform/http/guards.ts'
import { newId, newSecretToken, nowIso, sha256Hex } from '../../../platform/ids.ts'
import { findProject } from '../../projects/index.ts'
import * as members from '../members/repo.ts'
import { presentMember } from '../members/presenter.ts'
import type { CreateInvitationInput } from '../schemas.ts'
import { findUsableInvitation, joinByInvitation } from './join.ts'
import { deliverInvitation, inviteUrl } from './mail.ts'
import { invitationStatus, presentInvitation } from './presenter.ts'
import * as repo from './repo.ts'

type Caller = ReturnType<typeof memberOf>

export const INVITATION_TTL_MS = 7 * 86_400_000

const expiryFrom = (now: string) => new Date(new Date(now).getTime() + INVITATION_TTL_MS).toISOString()
const normalizeEmail = (email: string) => email.trim().toLowerCase()

export async function createInvitation(deps: AppDeps, { actor, membership }: Caller, input: CreateInvitationInput) {
  const { workspaceId } = membership
  const email = normalizeEmail(input.email)
  const token = newSecretToken()
  const now = nowIso()
  const row: repo.InvitationRow = {
    id: newId('inv'), workspace_id: workspaceId, email, access_role: input.accessRole ?? 'member',
    content_permission: input.contentPermission ?? 'edit', job_role: input.jobRole ?? null, project_id: input.projectId ?? null,
    token_hash: sha256Hex(token), invited_by: actor.accountId, status: 'pending', expires_at: expiryFrom(now),
    accepted_at: null, accepted_by: null, created_at: now, updated_at: now, delivery: null, last_sent_at: null, send_count: 0,
  }
  const { db } = deps.database
  const context = await db.transaction().execute(async (trx) => {
    const project = input.projectId ? await findProject(trx, workspaceId, input.projectId) ?? notFound('project', input.projectId) : undefined
    if (await members.findMemberByEmail(trx, workspaceId, email)) {
      throw new AppError('already_member', `${email} is already a member of this workspace.`)
    }
    const existing = await repo.findPendingInvitationInWorkspace(trx, workspaceId, email)
    if (existing && invitationStatus(existing, now) === 'pending') throw invitationPending(email, existing.id)
    // An expired invitation gives way to the new one.
    if (existing) await repo.updateInvitation(trx, existing.id, { status: 'expired', updated_at: now })
    if (deps.ports.entitlements) {
      // The invitation takes a seat: concurrent invitations are counted one after the other.
      await members.lockWorkspace(trx, deps.database.dialect, workspaceId)
      await deps.ports.entitlements.assertSeatAvailable(trx, workspaceId)
    }
    await repo.insertInvitation(trx, row)
    return { project, workspace: (await members.findWorkspace(trx, workspaceId))! }
  }).catch(async (error: unknown) => {
    if (!isUniqueViolation(error)) throw error
    // A concurrent invitation of the same address won.
    const winner = await repo.findPendingInvitationInWorkspace(db, workspaceId, email)
    throw invitationPending(email, winner?.id)
  })
  return send(deps, row, token, { inviterName: actor.name || actor.email, workspaceName: context.workspace.name, projectName: context.project?.name })
}

function invitationPending(email: string, invitationId: string | undefined) {
  return new AppError('invitation_pending', `${email} already has a pending invitation; resend it instead.`, {
    extra: invitationId ? { invitationId } : {},
  })
}

/** Mails the link when mail is configured, records how it went out, and answers the inviter. */
async function send(deps: AppDeps, row: repo.InvitationRow, token: string, names: { inviterName: string; workspaceName: string; projectName?: string }) {
  const url = inviteUrl(deps, token)
  const delivery = await deliverInvitation(deps, { to: row.email, inviteURL: url, expiresAt: row.expires_at, ...names })
  const sent = { delivery, last_sent_at: nowIso(), send_count: row.send_count + 1 }
  await repo.updateInvitation(deps.database.db, row.id, sent)
  return { invitation: presentInvitation({ ...row, ...sent }), inviteURL: url, delivery }
}

/**
 * Sends a pending (or expired) invitation again with a new link: the stored hash cannot give the
 * old token back, so the old link stops working, and the expiry starts over.
 */
export async function resendInvitation(deps: AppDeps, { actor, membership }: Caller, invitationId: string) {
  const { db, dialect } = deps.database
  const token = newSecretToken()
  const now = nowIso()
  const { row, workspace, project } = await db.transaction().execute(async (trx) => {
    const current = await repo.findInvitationForUpdate(trx, dialect, membership.workspaceId, invitationId) ?? notFound('invitation', invitationId)
    if (current.status !== 'pending') {
      throw new AppError('conflict', `This invitation is ${current.status}; only a pending or expired one can be resent.`, { extra: { status: current.status } })
    }
    const changes = { token_hash: sha256Hex(token), expires_at: expiryFrom(now), updated_at: now }
    await repo.updateInvitation(trx, current.id, changes)
    return {
      row: { ...current, ...changes },
      workspace: (await members.findWorkspace(trx, membership.workspaceId))!,
      project: current.project_id ? await findProject(trx, membership.workspaceId, current.project_id) : undefined,
    }
  })
  return send(deps, row, token, { inviterName: actor.name || actor.email, workspaceName: workspace.name, projectName: project?.name })
}

/** Revokes a pending invitation; revoking it again answers the same. */
export async function revokeInvitation(deps: AppDeps, { membership }: Caller, invitationId: string) {
  const { db, dialect } = deps.database
  return db.transaction().execute(async (trx) => {
    const current = await repo.findInvitationForUpdate(trx, dialect, membership.workspaceId, invitationId) ?? notFound('invitation', invitationId)
    if (current.status === 'revoked') return presentInvitation(current)
    if (current.status !== 'pending') {
      throw new AppError('conflict', `This invitation is ${current.status}; only a pending one can be revoked.`, { extra: { status: current.status } })
    }
    const changes = { status: 'revoked' as const, updated_at: nowIso() }
    await repo.updateInvitation(trx, current.id, changes)
    return presentInvitation({ ...current, ...changes })
  })
}

/** What the sign-in page shows to someone who opened an invitation link (public: the token is the permission). */
export async function invitationLoginIntent(deps: AppDeps, token: string) {
  const { db } = deps.database
  const invitation = await findUsableInvitation(db, token, nowIso())
  const [workspace, project, inviterName] = await Promise.all([
    members.findWorkspace(db, invitation.workspace_id),
    invitation.project_id ? findProject(db, invitation.workspace_id, invitation.project_id) : undefined,
    repo.findAccountName(db, invitation.invited_by),
  ])
  return {
    workspaceName: workspace!.name,
    invitedEmail: invitation.email,
    accessRole: invitation.access_role,
    contentPermission: invitation.content_permission,
    expiresAt: invitation.expires_at,
    ...(project ? { projectId: project.id, projectName: project.name } : {}),
    ...(inviterName ? { inviterName } : {}),
  }
}

/** The signed-in account accepts: its email must be the invited one. */
export async function acceptInvitation(deps: AppDeps, actor: Actor, token: string) {
  const { db } = deps.database
  const joined = await db.transaction().execute(async (trx) => {
    const now = nowIso()
    return joinByInvitation(deps.events, trx, actor, await findUsableInvitation(trx, token, now), now)
  })
  const [workspace, member] = await Promise.all([
    members.findWorkspace(db, joined.workspaceId),
    members.findMember(db, joined.workspaceId, actor.accountId),
  ])
  return {
    outcome: 'joined' as const,
    workspace: workspace!,
    member: presentMember(deps, member!),
    ...(joined.projectId ? { projectId: joined.projectId } : {}),
  }
}
