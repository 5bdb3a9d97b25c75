// /invite/{token}: who invited whom to which workspace and project (the public login intent),
// then sign in with the code and join.
import { useEffect, useState } from 'react'
import { navigate } from '../../app/router.ts'
import { ApiError, api, clearCache, invalidate, useAction } from '../../lib/api.ts'
import { translate, useI18n } from '../../lib/i18n.ts'
import type { AcceptResult, LoginIntent } from '../../lib/types.ts'
import { ErrorLine, Loading, PageTitle } from '../../lib/ui.tsx'
import { SignIn } from '../auth/SignIn.tsx'
import { CURRENT, signOut, useCurrentAccount } from '../auth/api.ts'

export function InvitePage({ token }: { token: string }) {
  const { t, dateTime } = useI18n()
  const [intent, setIntent] = useState<LoginIntent>()
  const [loadError, setLoadError] = useState<string>()
  const current = useCurrentAccount()
  const { busy, error, run } = useAction()
  const signedIn = Boolean(current.data)

  useEffect(() => {
    api.post<LoginIntent>(`/v1/invitations/${encodeURIComponent(token)}/login-intent`, {})
      .then(setIntent, (caught: unknown) => setLoadError(!(caught instanceof ApiError) ? String(caught)
        // A mistyped or unknown token: said plainly, not as the validator's words.
        : caught.status === 400 || caught.status === 404 ? translate('invite.invalid') : caught.message))
  }, [token])

  const join = () => run(async () => {
    const joined = await api.post<AcceptResult>(`/v1/invitations/${encodeURIComponent(token)}/accept`, {})
    clearCache()
    navigate(joined.projectId ? `/projects/${joined.projectId}` : '/', { replace: true })
  })

  if (loadError) {
    return <section className="card narrow"><PageTitle title={t('invite.title')}>{t('invite.title')}</PageTitle><ErrorLine error={loadError} /></section>
  }
  if (!intent || current.loading && !current.data && !current.error) return <Loading />
  const email = current.data?.account.email
  const otherAccount = email && email.toLowerCase() !== intent.invitedEmail.toLowerCase() ? email : undefined
  return (
    <section className="card narrow">
      <PageTitle title={t('invite.title')}>{t('invite.title')}</PageTitle>
      <p>{t('invite.body', { inviter: intent.inviterName ?? '—', email: intent.invitedEmail, workspace: intent.workspaceName })}</p>
      {intent.projectName ? <p>{t('invite.project', { project: intent.projectName })}</p> : null}
      <p>{t(intent.contentPermission === 'edit' ? 'invite.permission.edit' : 'invite.permission.view')}</p>
      <p className="muted">{t('invite.expires', { date: dateTime(intent.expiresAt) })}</p>
      {signedIn && otherAccount ? (
        // Signed in as someone else: joining would be refused, so say it and offer to switch.
        <>
          <p className="warning" data-testid="invite-other-account">{t('invite.otherAccount', { current: otherAccount, email: intent.invitedEmail })}</p>
          <button type="button" className="primary" disabled={busy} onClick={() => void run(async () => { await signOut(); invalidate(CURRENT) })}>{t('nav.signOut')}</button>
        </>
      ) : signedIn
        ? <button type="button" className="primary" disabled={busy} onClick={() => void join()}>{t('invite.join', { workspace: intent.workspaceName })}</button>
        : (
          <>
            <p>{t('invite.signInFirst', { email: intent.invitedEmail })}</p>
            <SignIn presetEmail={intent.invitedEmail} embedded />
          </>
        )}
      <ErrorLine error={error} />
    </section>
  )
}
