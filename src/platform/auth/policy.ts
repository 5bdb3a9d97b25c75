// Pure permission rules of a workspace membership (DESIGN §4). Project roles grant nothing.
import type { Access, Membership } from './actor.ts'

export const isManager = (membership: Membership): boolean =>
  membership.accessRole === 'owner' || membership.accessRole === 'admin'

export const canEditContent = (membership: Membership): boolean => membership.contentPermission === 'edit'

/** Whether a member may call a route guarded with `access`. */
export function allows(membership: Membership, access: Exclude<Access, 'public' | 'socket' | 'signedIn'>): boolean {
  if (access === 'view') return true
  if (access === 'edit') return canEditContent(membership)
  return isManager(membership)
}
