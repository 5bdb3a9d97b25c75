// Workspace bootstrap: a signed-in account without a workspace names one (POST /v1/account/bootstrap).
import { useState } from 'react'
import { invalidate, useAction } from '../../lib/api.ts'
import { useI18n } from '../../lib/i18n.ts'
import { ErrorLine, PageTitle } from '../../lib/ui.tsx'
import { CURRENT, bootstrap, useCurrentAccount } from './api.ts'

export function Welcome() {
  const { t } = useI18n()
  const [name, setName] = useState('')
  const { busy, error, run } = useAction()
  // Left empty, the workspace is named in the reader's language (the server's default is English).
  const account = useCurrentAccount().data?.account
  const who = account ? account.name || account.email.split('@')[0]! : ''
  const fallback = who ? t('welcome.defaultName', { name: who }) : ''
  // Invited (and signed in from the front page rather than the link): bootstrap joins that
  // workspace whatever name is typed, so the screen offers exactly that.
  const invitation = useCurrentAccount().data?.pendingInvitation
  if (account && invitation) {
    return (
      <section className="card narrow" data-testid="welcome-invited">
        <PageTitle title={t('invite.title')}>{t('invite.title')}</PageTitle>
        <p>{t('invite.body', { inviter: invitation.inviterName ?? t('welcome.someone'), email: account.email, workspace: invitation.workspaceName })}</p>
        <button type="button" className="primary" disabled={busy}
          onClick={() => void run(async () => { await bootstrap({}); invalidate(CURRENT) })}>{t('invite.join', { workspace: invitation.workspaceName })}</button>
        <ErrorLine error={error} />
      </section>
    )
  }
  return (
    <section className="card narrow">
      <PageTitle title={t('welcome.title')}>{t('welcome.title')}</PageTitle>
      <form onSubmit={(event) => {
        event.preventDefault()
        const workspaceName = name.trim() || fallback
        void run(async () => { await bootstrap(workspaceName ? { workspaceName } : {}); invalidate(CURRENT) })
      }}>
        <label htmlFor="workspace-name">{t('welcome.name')}</label>
        <input id="workspace-name" value={name} placeholder={fallback} aria-describedby="workspace-name-hint" onChange={(event) => setName(event.target.value)} maxLength={120} />
        <p className="muted small" id="workspace-name-hint">{t('welcome.hint')}</p>
        <button type="submit" className="primary" disabled={busy}>{t('welcome.create')}</button>
      </form>
      <ErrorLine error={error} />
    </section>
  )
}
