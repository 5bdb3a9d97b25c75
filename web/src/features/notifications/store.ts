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

/** Every kind the server sends (work/record.ts and reviews.ts, projects, invitations) has its own sentence. */
const KNOWN = new Set([
  'review.assigned', 'review.requested', 'review.decided', 'review.unassigned', 'invitation.accepted', 'project.added',
  'workobject.assigned', 'workobject.unassigned', 'workobject.updated', 'workobject.stage', 'workobject.responsibility', 'comment.created',
])

type Data = { title?: string; decision?: string; toStage?: string; state?: string; projectName?: string; revisionId?: string }

export function describe(notification: CollaborationNotification): string {
  const actor = notification.actor?.name || translate('notification.someone')
  const data = notification.data as Data
  const values = {
    actor, title: data.title ?? '', project: data.projectName ?? '',
    decision: data.decision ? translate((`work.review.state.${data.decision}`) as MessageKey) : '',
    stage: data.toStage ? translate((`work.stage.${data.toStage}`) as MessageKey) : '',
    state: data.state ? translate((`work.resp.${data.state}`) as MessageKey) : '',
  }
  if (notification.kind === 'project.added' && !data.projectName) return translate('notification.project.added', values)
  if (notification.kind === 'project.added') return translate('notification.project.addedNamed', values)
  if (notification.kind === 'workobject.proposal') {
    // A decision on a proposal (accept or reject), or a new proposal from a later meeting.
    const key = data.decision === 'accept' ? 'notification.workobject.proposal.accepted'
      : data.decision === 'reject' ? 'notification.workobject.proposal.rejected' : 'notification.workobject.proposal'
    return translate(key, values)
  }
  if (KNOWN.has(notification.kind)) return translate(`notification.${notification.kind}` as MessageKey, values)
  // A kind this client does not know yet: say what it is about, never its id.
  return data.title ? translate('notification.other', values) : translate('notification.otherUntitled', values)
}

export function linkOf(notification: CollaborationNotification): string | undefined {
  const data = notification.data as { sessionId?: string; workObjectId?: string; projectId?: string }
  // About one work object: its session opened at it (the page scrolls to it), not at the top.
  if (data.sessionId && data.workObjectId) return `/sessions/${data.sessionId}?workObject=${encodeURIComponent(data.workObjectId)}`
  if (data.sessionId) return `/sessions/${data.sessionId}`
  if (notification.kind === 'project.added' && data.projectId) return `/projects/${data.projectId}`
  if (data.workObjectId) return '/board'
  if (notification.kind === 'invitation.accepted') return '/members'
  return undefined
}
