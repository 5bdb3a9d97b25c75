// The notification inbox: newest first, unread marked; opening one marks it read.
import { useAction } from '../../lib/api.ts'
import { useI18n } from '../../lib/i18n.ts'
import { ErrorLine, Link, Loading, PageTitle } from '../../lib/ui.tsx'
import { describe, linkOf, markRead, useNotifications } from './store.ts'

export function NotificationsPage() {
  const { t, dateTime } = useI18n()
  const list = useNotifications()
  const { busy, error, run } = useAction()
  return (
    <section>
      <PageTitle title={t('notifications.title')}>{t('notifications.title')}</PageTitle>
      {list.data && list.data.unreadCount > 0 ? (
        <button type="button" disabled={busy} onClick={() => void run(() => markRead({ all: true }))}>{t('notifications.markAll')}</button>
      ) : null}
      <ErrorLine error={error ?? list.error?.message} />
      {!list.data ? <Loading /> : list.data.notifications.length === 0 ? <p className="muted">{t('notifications.empty')}</p> : (
        <ul className="list notifications" data-testid="notifications">
          {list.data.notifications.map((notification) => {
            const href = linkOf(notification)
            const text = describe(notification)
            return (
              <li key={notification.id} className={notification.read ? 'read' : 'unread'} data-kind={notification.kind}>
                {href ? <Link href={href} onClick={() => { if (!notification.read) void markRead({ notificationIds: [notification.id] }) }}>{text}</Link> : text}
                <span className="muted"> · {dateTime(notification.createdAt)}</span>
              </li>
            )
          })}
        </ul>
      )}
    </section>
  )
}
