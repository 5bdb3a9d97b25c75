// Row types of the tables owned by the account module.
// Only that owner queries them; other modules go through its index.ts (docs/ARCHITECTURE.md).

export type AccountSettingsTable = {
  account_id: string
  active_workspace_id: string | null
  locale: string | null
  timezone: string | null
  avatar_asset_id: string | null
  created_at: string
  updated_at: string
}

export type AccountTables = {
  account_settings: AccountSettingsTable
}
