// Row types of the tables owned by the assets module.
// Only that owner queries them; other modules go through its index.ts (docs/ARCHITECTURE.md).

export type AssetTable = {
  id: string
  owner_account_id: string
  workspace_id: string | null
  purpose: 'avatar'
  content_type: string
  byte_size: number
  sha256: string
  blob_key: string
  created_at: string
}

export type AssetsTables = {
  assets: AssetTable
}
