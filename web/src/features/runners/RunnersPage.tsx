// The member's local runners: a one-time pairing grant with the `confer runner pair` command to
// run on their machine, the runners with their status, and revoking one.
import { useState } from 'react'
import { useAction } from '../../lib/api.ts'
import { useI18n } from '../../lib/i18n.ts'
import type { RegistrationGrant } from '../../lib/types.ts'
import { ErrorLine, Loading, PageTitle } from '../../lib/ui.tsx'
import { useCanEdit } from '../auth/api.ts'
import { runners, useRunners } from './api.ts'

const RUNNER_CONFIG_PATH = '~/.config/confer-runner/runner.json'

/** A runner.json that pairs with this server and answers the work it is sent with a comment (docs/runner.md). */
function exampleConfig(pairCommand: string): string {
  const server = /--server (\S+)/.exec(pairCommand)?.[1] ?? location.origin
  return JSON.stringify({
    server,
    displayName: 'My laptop',
    runners: { 'runner-a': { command: ['sh', '-c', 'cat "$CONFER_TASK_FILE"'], resultAs: 'comment' } },
  }, null, 2)
}

export function RunnersPage() {
  const { t, dateTime } = useI18n()
  const list = useRunners()
  const [grant, setGrant] = useState<RegistrationGrant>()
  const { busy, error, run } = useAction()
  const canEdit = useCanEdit()
  return (
    <section className="runners">
      <PageTitle title={t('runners.title')}>{t('runners.title')}</PageTitle>
      <p>{t('runners.intro')}</p>
      {canEdit ? (
        <button type="button" className="primary" disabled={busy} onClick={() => void run(() => runners.createGrant()).then((created) => { if (created) setGrant(created) })}>
          {t('runners.pair')}
        </button>
      ) : <p className="muted" data-testid="view-only">{t('common.viewOnly')}</p>}
      <ErrorLine error={error} />
      {grant ? (
        <div className="notice" role="status" data-testid="runner-grant">
          <p>{t('runners.grantShownOnce', { date: dateTime(grant.expiresAt) })}</p>
          <ol className="steps">
            <li><p>{t('runners.setup')}</p></li>
            <li>
              <p>{t('runners.config', { path: RUNNER_CONFIG_PATH })}</p>
              <pre tabIndex={0} aria-label={t('runners.configLabel')} data-testid="runner-config"><code>{exampleConfig(grant.pairCommand)}</code></pre>
            </li>
            <li>
              <p>{t('runners.runCommand')}</p>
              <pre tabIndex={0} aria-label={t('runners.command')}><code>{grant.pairCommand}</code></pre>
              <p>{t('runners.grant')}</p>
              <pre tabIndex={0} aria-label={t('runners.grant')}><code>{grant.registrationGrant}</code></pre>
              <button type="button" onClick={() => void navigator.clipboard?.writeText(grant.pairCommand)}>{t('runners.copy')}</button>
            </li>
            <li><p>{t('runners.startCommand')}</p></li>
          </ol>
        </div>
      ) : null}
      <h2>{t('runners.list')}</h2>
      {grant ? <button type="button" onClick={list.reload}>{t('runners.reload')}</button> : null}
      {list.error ? <ErrorLine error={list.error.message} /> : null}
      {!list.data && !list.error ? <Loading /> : null}
      {list.data && list.data.runners.length === 0 ? <p className="muted">{t('runners.none')}</p> : null}
      <ul className="cards">
        {(list.data?.runners ?? []).map((runner) => (
          <li key={runner.id} className="card">
            <strong>{runner.displayName}</strong>{' '}
            <span className={`badge ${runner.status}`}>{t(runner.status === 'active' ? 'runners.active' : 'runners.revoked')}</span>
            <p className="muted">
              {runner.supportedRunners.join(', ')} · {runner.lastSeenAt ? t('runners.lastSeen', { date: dateTime(runner.lastSeenAt) }) : t('runners.neverSeen')}
            </p>
            <p className="muted small">{t('runners.fingerprint')} <code>{runner.signingKeyFingerprint.slice(0, 16)}…</code></p>
            {runner.status === 'active' ? (
              <button type="button" disabled={busy} onClick={() => { if (window.confirm(t('runners.revokeConfirm', { name: runner.displayName }))) void run(() => runners.revoke(runner)) }}>
                {t('runners.revoke')}<span className="visually-hidden"> {runner.displayName}</span>
              </button>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  )
}
