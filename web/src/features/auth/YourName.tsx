// The signed-in person's display name (PATCH /v1/account/profile): until they give one, colleagues
// see their email everywhere (members, owners, reviewers, comments).
import { useState } from 'react'
import { api, invalidate, useAction } from '../../lib/api.ts'
import { useI18n } from '../../lib/i18n.ts'
import type { ProfileInput } from '../../lib/types.ts'
import { ErrorLine } from '../../lib/ui.tsx'
import { CURRENT, useCurrentAccount } from './api.ts'

export function YourName() {
  const { t } = useI18n()
  const current = useCurrentAccount()
  const saved = current.data?.account.name ?? ''
  const [name, setName] = useState<string>()
  const [done, setDone] = useState(false)
  const { busy, error, run } = useAction()
  const value = name ?? saved
  const save = () => run(async () => {
    const input: ProfileInput = { name: value.trim() }
    await api.patch('/v1/account/profile', input)
    invalidate(CURRENT)
    invalidate('/v1/workspace/members')
    setName(undefined)
    setDone(true)
  })
  return (
    <form className="card" aria-labelledby="your-name-title" onSubmit={(event) => { event.preventDefault(); void save() }}>
      <h2 id="your-name-title">{t('profile.title')}</h2>
      {!saved ? <p className="muted">{t('profile.noName')}</p> : null}
      <label htmlFor="your-name">{t('profile.name')}</label>
      <input id="your-name" required maxLength={120} autoComplete="name" value={value} onChange={(event) => { setName(event.target.value); setDone(false) }} />
      <button type="submit" disabled={busy || !value.trim() || value.trim() === saved}>{t('common.save')}</button>
      {done ? <p role="status">{t('profile.saved')}</p> : null}
      <ErrorLine error={error} />
    </form>
  )
}
