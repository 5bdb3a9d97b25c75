// Member rows → WorkspaceMember.
import type { AppDeps } from '../../../platform/deps.ts'
import { signedAssetUrl } from '../../assets/index.ts'
import type { MemberRow } from './repo.ts'

export function presentMember(deps: AppDeps, row: MemberRow) {
  return {
    accountId: row.account_id,
    name: row.name,
    email: row.email,
    accessRole: row.access_role,
    contentPermission: row.content_permission,
    ...(row.job_role ? { jobRole: row.job_role } : {}),
    ...(row.avatar_asset_id ? { avatarURL: signedAssetUrl(deps, row.avatar_asset_id).url } : {}),
    joinedAt: row.created_at,
  }
}
