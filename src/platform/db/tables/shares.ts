// Row types of the tables owned by the shares module.
// Only that owner queries them; other modules go through its index.ts (docs/ARCHITECTURE.md).

export type SharePermission = 'read' | 'comment'

export type SessionShareTable = {
  id: string
  session_id: string
  workspace_id: string
  token_hash: string
  permission: SharePermission
  expires_at: string
  revoked_at: string | null
  created_by: string
  created_at: string
  updated_at: string
}

export type SharesTables = {
  session_shares: SessionShareTable
}
