// The sessions of the workspace, newest first.
import { useI18n, type MessageKey } from '../../lib/i18n.ts'
import type { SessionSnapshot } from '../../lib/types.ts'
import { ErrorLine, Link, Loading, PageTitle } from '../../lib/ui.tsx'
import { useSessions } from './api.ts'

export function SessionsPage() {
  const { t } = useI18n()
  const sessions = useSessions()
  return (
    <section>
      <PageTitle title={t('sessions.title')}>{t('sessions.title')}</PageTitle>
      <p><Link className="button primary" href="/record">{t('record.title')}</Link></p>
      {sessions.error ? <ErrorLine error={sessions.error.message} /> : null}
      {sessions.data ? <SessionList sessions={sessions.data} /> : <Loading />}
    </section>
  )
}

export function SessionList({ sessions }: { sessions: SessionSnapshot[] }) {
  const { t, dateTime } = useI18n()
  if (sessions.length === 0) return <p className="muted">{t('common.none')}</p>
  return (
    <ul className="list">
      {sessions.map((session) => (
        <li key={session.id}>
          <Link href={`/sessions/${session.id}`}>{session.title}</Link>
          <span className="muted"> · {dateTime(session.startedAt)} · {t(`sessions.state.${session.state}` as MessageKey)}</span>
        </li>
      ))}
    </ul>
  )
}
