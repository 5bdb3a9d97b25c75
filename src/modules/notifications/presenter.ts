// Notification rows → CollaborationNotification.
import type { NotificationRow } from './repo.ts'

export function presentNotification(row: NotificationRow) {
  return {
    id: row.id,
    kind: row.kind,
    workspaceId: row.workspace_id,
    ...(row.actor_account_id
      ? { actor: { accountId: row.actor_account_id, ...(row.actor_name ? { name: row.actor_name } : {}) } }
      : {}),
    ...(row.subject_type ? { subjectType: row.subject_type } : {}),
    ...(row.subject_id ? { subjectId: row.subject_id } : {}),
    data: JSON.parse(row.data) as Record<string, unknown>,
    read: row.read_at !== null,
    ...(row.read_at ? { readAt: row.read_at } : {}),
    createdAt: row.created_at,
  }
}
