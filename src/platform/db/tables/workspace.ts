// Row types of the tables owned by the workspace module (workspaces, members and their account settings, invitations).
// Only that owner queries them; other modules go through its index.ts (docs/ARCHITECTURE.md).
import type { ColumnType } from 'kysely'

export type WorkspaceTable = {
  id: string
  name: string
  created_by: string
  created_at: string
  updated_at: string
}

export type WorkspaceMemberTable = {
  workspace_id: string
  account_id: string
  access_role: 'owner' | 'admin' | 'member'
  content_permission: 'edit' | 'view'
  job_role: string | null
  created_at: string
  updated_at: string
}

export type InvitationTable = {
  id: string
  workspace_id: string
  email: string
  access_role: 'admin' | 'member'
  content_permission: 'edit' | 'view'
  job_role: string | null
  project_id: string | null
  token_hash: string
  invited_by: string
  /** 'expired': a pending invitation past expires_at that a new invitation replaced */
  status: 'pending' | 'accepted' | 'revoked' | 'expired'
  expires_at: string
  accepted_at: string | null
  accepted_by: string | null
  created_at: string
  updated_at: string
  /** how the link last went out: 'email' (SMTP) or 'link' (only returned to the inviter) */
  delivery: ColumnType<'email' | 'link' | null, 'email' | 'link' | null | undefined, 'email' | 'link' | null>
  last_sent_at: ColumnType<string | null, string | null | undefined, string | null>
  send_count: ColumnType<number, number | undefined, number>
}


export type AccountSettingsTable = {
  account_id: string
  active_workspace_id: string | null
  locale: string | null
  timezone: string | null
  avatar_asset_id: string | null
  created_at: string
  updated_at: string
}

export type WorkspaceTables = {
  account_settings: AccountSettingsTable
  workspaces: WorkspaceTable
  workspace_members: WorkspaceMemberTable
  invitations: InvitationTable
}
