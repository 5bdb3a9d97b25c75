// Notifications: the list with its unread count (cached), kept live by the caller's inbox stream
// (GET /v1/collaboration/notifications/events); each pushed notification refreshes the list.
import { useEffect } from 'react'
import { api, invalidate, useResource } from '../../lib/api.ts'
import { translate, type MessageKey } from '../../lib/i18n.ts'
import { openStream } from '../../lib/realtime.ts'
import type { CollaborationNotification, MarkReadInput, NotificationList } from '../../lib/types.ts'

export const NOTIFICATIONS = '/v1/collaboration/notifications'
export const useNotifications = () => useResource<NotificationList>(NOTIFICATIONS)

export function useLiveNotifications(enabled: boolean) {
  useEffect(() => {
    if (!enabled) return
    return openStream({
      path: '/v1/collaboration/notifications/events',
      onEvent(event) {
        if (event.type !== 'notification.created') return
        invalidate(NOTIFICATIONS)
        // Someone joined: the member pickers (assign, reviewer) should offer them.
        if (event.data?.notification?.kind === 'invitation.accepted') invalidate('/v1/workspace/members')
      },
    })
  }, [enabled])
}

export async function markRead(input: MarkReadInput) {
  await api.patch(NOTIFICATIONS, input)
  invalidate(NOTIFICATIONS)
}

const KNOWN = new Set(['review.assigned', 'review.requested', 'review.decided', 'invitation.accepted', 'project.added'])

export function describe(notification: CollaborationNotification): string {
  const actor = notification.actor?.name || translate('notification.someone')
  const data = notification.data as { title?: string; decision?: string }
  if (KNOWN.has(notification.kind)) {
    const decision = data.decision ? translate((`work.review.state.${data.decision}`) as MessageKey) : ''
    return translate(`notification.${notification.kind}` as MessageKey, { actor, title: data.title ?? '', decision })
  }
  return translate('notification.other', { actor, kind: notification.kind })
}

export function linkOf(notification: CollaborationNotification): string | undefined {
  const data = notification.data as { sessionId?: string; workObjectId?: string }
  if (data.sessionId) return `/sessions/${data.sessionId}`
  return undefined
}
