// Row types of the tables owned by the notifications module.
// Only that owner queries them; other modules go through its index.ts (docs/ARCHITECTURE.md).

export type NotificationTable = {
  id: string
  workspace_id: string
  recipient_account_id: string
  kind: string
  actor_account_id: string | null
  subject_type: string | null
  subject_id: string | null
  /** JSON object */
  data: string
  read_at: string | null
  created_at: string
}

export type NotificationsTables = {
  notifications: NotificationTable
}
