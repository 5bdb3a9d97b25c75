// Test helpers of the workspace module: people joining a workspace through the real invitation routes.
import type { Harness, Member } from '../../../test/harness.ts'

export type InviteOptions = {
  email?: string
  accessRole?: 'admin' | 'member'
  contentPermission?: 'edit' | 'view'
  jobRole?: 'product' | 'engineering' | 'design' | 'other'
  projectId?: string
}

/** The manager invites; answers the invitation and its token (taken from inviteURL). */
export async function invite(manager: Member, options: InviteOptions & { email: string }) {
  const response = await manager.post('/v1/workspace/invitations', options)
  if (response.statusCode !== 200) throw new Error(`invite failed: ${response.statusCode} ${response.body}`)
  const body = response.json() as { invitation: { id: string; expiresAt: string; status: string }; inviteURL: string; delivery: string }
  return { ...body, token: tokenOf(body.inviteURL) }
}

export const tokenOf = (inviteURL: string) => inviteURL.slice(inviteURL.lastIndexOf('/invite/') + '/invite/'.length)

/** A new person, invited by `manager`, signs in and accepts: a member of the manager's workspace. */
export async function inviteAndJoin(h: Harness, manager: Member, options: InviteOptions = {}): Promise<Member> {
  const email = options.email ?? h.uniqueEmail('colleague')
  const { token } = await invite(manager, { ...options, email })
  const person = await h.signIn(email)
  const accepted = await person.post(`/v1/invitations/${token}/accept`)
  if (accepted.statusCode !== 200) throw new Error(`accept failed: ${accepted.statusCode} ${accepted.body}`)
  return { ...person, accountId: accepted.json().member.accountId, workspaceId: manager.workspaceId }
}
