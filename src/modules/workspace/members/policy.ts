// Pure rules of managing workspace members (DESIGN §4): managers (owner, admin) change and remove
// members; only an owner touches an owner or makes one; the last owner stays an owner.
import type { Membership } from '../../../platform/auth/actor.ts'
import { isManager } from '../../../platform/auth/policy.ts'

type AccessRole = Membership['accessRole']

export type Verdict =
  | { allowed: true }
  | { allowed: false; code: 'forbidden' | 'last_owner'; reason: string }

const ALLOWED: Verdict = { allowed: true }

/** May `caller` change `target`'s access role to `newRole` (undefined: the role stays)? */
export function canChangeMember(caller: Membership, target: { accessRole: AccessRole }, newRole: AccessRole | undefined, ownerCount: number): Verdict {
  if (!isManager(caller)) return { allowed: false, code: 'forbidden', reason: 'Only workspace owners and admins may change members.' }
  const touchesOwner = target.accessRole === 'owner' || newRole === 'owner'
  if (touchesOwner && caller.accessRole !== 'owner') {
    return { allowed: false, code: 'forbidden', reason: 'Only an owner may make someone an owner or change an owner\'s role.' }
  }
  if (target.accessRole === 'owner' && newRole !== undefined && newRole !== 'owner' && ownerCount <= 1) {
    return { allowed: false, code: 'last_owner', reason: 'The last owner cannot be demoted: make another member an owner first.' }
  }
  return ALLOWED
}

/** May `caller` remove `target` from the workspace? */
export function canRemoveMember(caller: Membership, target: { accessRole: AccessRole }, ownerCount: number): Verdict {
  if (!isManager(caller)) return { allowed: false, code: 'forbidden', reason: 'Only workspace owners and admins may remove members.' }
  if (target.accessRole === 'owner' && caller.accessRole !== 'owner') {
    return { allowed: false, code: 'forbidden', reason: 'Only an owner may remove an owner.' }
  }
  if (target.accessRole === 'owner' && ownerCount <= 1) {
    return { allowed: false, code: 'last_owner', reason: 'The last owner cannot be removed: make another member an owner first.' }
  }
  return ALLOWED
}
