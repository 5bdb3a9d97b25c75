// Workspace bootstrap: a signed-in account without a workspace names one (POST /v1/account/bootstrap).
import { useState } from 'react'
import { invalidate, useAction } from '../../lib/api.ts'
import { useI18n } from '../../lib/i18n.ts'
import { ErrorLine, PageTitle } from '../../lib/ui.tsx'
import { CURRENT, bootstrap } from './api.ts'

export function Welcome() {
  const { t } = useI18n()
  const [name, setName] = useState('')
  const { busy, error, run } = useAction()
  return (
    <section className="card narrow">
      <PageTitle title={t('welcome.title')}>{t('welcome.title')}</PageTitle>
      <form onSubmit={(event) => {
        event.preventDefault()
        void run(async () => { await bootstrap(name.trim() ? { workspaceName: name.trim() } : {}); invalidate(CURRENT) })
      }}>
        <label htmlFor="workspace-name">{t('welcome.name')}</label>
        <input id="workspace-name" value={name} onChange={(event) => setName(event.target.value)} maxLength={120} />
        <button type="submit" className="primary" disabled={busy}>{t('welcome.create')}</button>
      </form>
      <ErrorLine error={error} />
    </section>
  )
}
