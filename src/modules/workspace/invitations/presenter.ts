// Invitation rows → WorkspaceInvitation. The token never leaves the request that made it.
import type { Static } from 'typebox'
import type { JobRole } from '../schemas.ts'
import type { InvitationRow } from './repo.ts'

/** A pending invitation past its expiry is reported as expired. */
export const invitationStatus = (row: InvitationRow, now = new Date().toISOString()) =>
  row.status === 'pending' && row.expires_at <= now ? 'expired' : row.status

export function presentInvitation(row: InvitationRow) {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    email: row.email,
    accessRole: row.access_role,
    contentPermission: row.content_permission,
    ...(row.job_role ? { jobRole: row.job_role as Static<typeof JobRole> } : {}),
    ...(row.project_id ? { projectId: row.project_id } : {}),
    status: invitationStatus(row),
    ...(row.delivery ? { delivery: row.delivery } : {}),
    invitedBy: row.invited_by,
    expiresAt: row.expires_at,
    ...(row.last_sent_at ? { lastSentAt: row.last_sent_at } : {}),
    ...(row.accepted_at ? { acceptedAt: row.accepted_at } : {}),
    ...(row.accepted_by ? { acceptedBy: row.accepted_by } : {}),
    createdAt: row.created_at,
  }
}
