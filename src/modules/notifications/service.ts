// Notifications: `notify` writes one for a recipient inside the caller's transaction (every module
// that notifies calls it) and appends `notification.created` to the recipient's inbox stream in the
// same transaction, so it is pushed on their realtime inbox (GET /v1/collaboration/notifications/events)
// exactly when it commits; members list theirs and mark them read.
import type { AppDeps } from '../../platform/deps.ts'
import type { memberOf } from '../../platform/http/guards.ts'
import { decodeCursor, paginate } from '../../platform/http/pagination.ts'
import { newId, nowIso } from '../../platform/ids.ts'
import type { MarkReadInput, NotificationsInput } from './schemas.ts'
import { presentNotification } from './presenter.ts'
import * as repo from './repo.ts'
import type { EventLog } from '../../platform/realtime/types.ts'

/** Kinds written so far; later modules add theirs (assignment, review, comment…). */
export type NotificationKind = 'invitation.accepted' | 'project.added' | (string & {})

export type NewNotification = {
  workspaceId: string
  recipientAccountId: string
  kind: NotificationKind
  /** who caused it; nobody is notified of their own action */
  actorAccountId?: string
  /** what it is about, e.g. ('project', 'prj_…') */
  subjectType?: string
  subjectId?: string
  /** what the client shows without another request (names, titles) */
  data: Record<string, unknown>
}

/**
 * Writes a notification in `executor` (pass the transaction of the change it reports, so both
 * commit or neither). Returns its id, or undefined when the recipient is the actor.
 */
export async function notify(events: EventLog, executor: repo.Executor, notification: NewNotification): Promise<string | undefined> {
  if (notification.actorAccountId !== undefined && notification.actorAccountId === notification.recipientAccountId) return undefined
  const id = newId('ntf')
  const row = {
    id,
    workspace_id: notification.workspaceId,
    recipient_account_id: notification.recipientAccountId,
    kind: notification.kind,
    actor_account_id: notification.actorAccountId ?? null,
    subject_type: notification.subjectType ?? null,
    subject_id: notification.subjectId ?? null,
    data: JSON.stringify(notification.data),
    read_at: null,
    created_at: nowIso(),
  }
  await repo.insertNotification(executor, row)
  const actorName = row.actor_account_id ? await repo.accountName(executor, row.actor_account_id) : null
  await events.append(executor, inboxStream(row.workspace_id, row.recipient_account_id), 'notification.created', {
    notification: presentNotification({ ...row, actor_name: actorName }),
  })
  return id
}

/** The event stream of one member's notifications in one workspace (the realtime log's key). */
export const inboxStream = (workspaceId: string, accountId: string) => `inbox:${workspaceId}:${accountId}`

type Caller = ReturnType<typeof memberOf>

const scopeOf = ({ actor, membership }: Caller) => ({ workspaceId: membership.workspaceId, accountId: actor.accountId })

export async function listNotifications(deps: AppDeps, caller: Caller, query: NotificationsInput) {
  const scope = scopeOf(caller)
  const { db } = deps.database
  const limit = query.limit ?? 50
  const after = decodeCursor(query.cursor, ['string'])
  const [rows, unreadCount] = await Promise.all([
    repo.listNotifications(db, scope, { unreadOnly: query.unread === true, beforeId: after?.[0] as string | undefined, limit }),
    repo.countUnread(db, scope),
  ])
  const page = paginate(rows, limit, (row) => [row.id])
  return {
    notifications: page.items.map(presentNotification),
    unreadCount,
    ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
  }
}

export async function markNotificationsRead(deps: AppDeps, caller: Caller, input: MarkReadInput) {
  const scope = scopeOf(caller)
  return deps.database.db.transaction().execute(async (trx) => {
    const updated = await repo.markRead(trx, scope, 'all' in input ? 'all' : input.notificationIds, nowIso())
    return { updated, unreadCount: await repo.countUnread(trx, scope) }
  })
}
