// The invitation a signed-in account without a workspace would join on bootstrap (the newest usable
// one for its email: account/service.ts joins it before it would create a workspace), named for the
// web client's first screen: which workspace, invited by whom, until when.
import type { Executor } from './repo.ts'
import { findAccountName, findPendingInvitationForEmail } from './repo.ts'
import * as members from '../members/repo.ts'

export async function pendingInvitationFor(db: Executor, email: string, now: string) {
  const invitation = await findPendingInvitationForEmail(db, email.toLowerCase(), now)
  if (!invitation) return undefined
  const [workspace, inviterName] = await Promise.all([members.findWorkspace(db, invitation.workspace_id), findAccountName(db, invitation.invited_by)])
  if (!workspace) return undefined
  return { workspaceName: workspace.name, expiresAt: invitation.expires_at, ...(inviterName ? { inviterName } : {}) }
}
