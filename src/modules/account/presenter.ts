// Rows → API shapes of the account module.
import type { AppDeps } from '../../platform/deps.ts'
import type { Tables } from '../../platform/db/tables.ts'
import { signedAssetUrl } from '../assets/index.ts'

type AccountRow = {
  id: string; email: string; name: string; emailVerified: unknown; createdAt: unknown
  locale: string | null; timezone: string | null; avatar_asset_id: string | null; active_workspace_id: string | null
}

export const isoTimestamp = (value: unknown): string => new Date(value as string | Date).toISOString()

/** The account row joined with its settings columns (null until the account has settings). */
export function presentAccount(deps: AppDeps, user: AccountRow) {
  const avatar = user.avatar_asset_id ? signedAssetUrl(deps, user.avatar_asset_id) : undefined
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    emailVerified: user.emailVerified === true || user.emailVerified === 1,
    ...(user.locale ? { locale: user.locale } : {}),
    ...(user.timezone ? { timezone: user.timezone } : {}),
    ...(avatar ? { avatarURL: avatar.url, avatarURLExpiresAt: avatar.expiresAt } : {}),
    ...(user.active_workspace_id ? { activeWorkspaceId: user.active_workspace_id } : {}),
    createdAt: isoTimestamp(user.createdAt),
  }
}

export const presentWorkspace = (row: Tables['workspaces']) => ({ id: row.id, name: row.name, createdAt: row.created_at })

export const presentMembership = (row: Tables['workspace_members']) => ({
  workspaceId: row.workspace_id,
  accountId: row.account_id,
  accessRole: row.access_role,
  contentPermission: row.content_permission,
  ...(row.job_role ? { jobRole: row.job_role } : {}),
  joinedAt: row.created_at,
})
