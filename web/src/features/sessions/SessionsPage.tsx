// The sessions of the workspace, newest first: when each was recorded and for how long.
import { translate, useI18n, type MessageKey } from '../../lib/i18n.ts'
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
      {sessions.data ? <SessionList sessions={sessions.data} empty={t('sessions.empty')} /> : <Loading />}
    </section>
  )
}

/**
 * How long a finished meeting lasted, from its start to its end ("12 min", "40 s"); nothing while it
 * records. `audioMs` (where its transcript reaches: the page's segments, else the server's `transcriptEndMs`) is a
 * floor: an uploaded recording's session starts and ends within seconds however long the audio is.
 */
export function lasted(session: Pick<SessionSnapshot, 'startedAt' | 'endedAt' | 'transcriptEndMs'>, audioMs = session.transcriptEndMs ?? 0): string | undefined {
  if (!session.endedAt) return undefined
  const seconds = Math.max(0, Math.round(audioMs / 1000), Math.round((Date.parse(session.endedAt) - Date.parse(session.startedAt)) / 1000))
  if (Number.isNaN(seconds)) return undefined
  return seconds < 60 ? translate('sessions.seconds', { n: seconds }) : translate('sessions.minutes', { n: Math.round(seconds / 60) })
}

export function SessionList({ sessions, empty }: { sessions: SessionSnapshot[]; empty?: string }) {
  const { t, dateTime } = useI18n()
  if (sessions.length === 0) return <p className="muted" data-testid="sessions-empty">{empty ?? t('common.none')}</p>
  return (
    <ul className="list">
      {sessions.map((session) => (
        <li key={session.id}>
          <Link href={`/sessions/${session.id}`}>{session.title}</Link>
          <span className="muted"> · {dateTime(session.startedAt)}{lasted(session) ? ` · ${lasted(session)}` : ''} · {t(`sessions.state.${session.state}` as MessageKey)}</span>
        </li>
      ))}
    </ul>
  )
}
