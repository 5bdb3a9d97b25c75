// A meeting's title, renamed in place by an editor ("Meeting of …" or a file's name is rarely what
// people call it), and its archiving: an archived meeting leaves the lists (its work and memory
// stay) and can be restored from its page.
import { useState } from 'react'
import { api, invalidate, useAction } from '../../lib/api.ts'
import { useI18n } from '../../lib/i18n.ts'
import type { SessionSnapshot } from '../../lib/types.ts'
import { ErrorLine } from '../../lib/ui.tsx'

export function SessionTitleTools({ session, canEdit }: { session: SessionSnapshot; canEdit: boolean }) {
  const { t } = useI18n()
  const [editing, setEditing] = useState(false)
  const [title, setTitle] = useState(session.title)
  const { busy, error, run, setError } = useAction()
  const patch = (body: { title?: string; archived?: boolean }) => run(async () => {
    await api.patch(`/v1/sessions/${session.id}`, { ...body, expectedUpdatedAt: session.updatedAt })
    invalidate(`/v1/sessions/${session.id}`, '/v1/sessions', '/v1/projects')
    setEditing(false)
  })
  if (!canEdit) return session.archivedAt ? <p className="muted" data-testid="session-archived">{t('session.archived')}</p> : null
  return (
    <div>
      {session.archivedAt ? <p className="muted" data-testid="session-archived">{t('session.archived')}</p> : null}
      {editing ? (
        <form className="row" noValidate onSubmit={(event) => {
          event.preventDefault()
          // Only spaces: the server refuses it too; say so instead of doing nothing on Enter.
          if (title.trim()) void patch({ title: title.trim() })
          else setError(t('session.titleBlank'))
        }}>
          <label htmlFor="session-title-edit">{t('session.titleField')}</label>
          <input id="session-title-edit" required maxLength={200} value={title} aria-invalid={error && !title.trim() ? true : undefined}
            onChange={(event) => { setTitle(event.target.value); if (event.target.value.trim()) setError(undefined) }} />
          <button type="submit" className="primary" disabled={busy}>{t('common.save')}</button>
          <button type="button" onClick={() => { setEditing(false); setTitle(session.title) }}>{t('common.cancel')}</button>
        </form>
      ) : (
        <div className="row">
          <button type="button" disabled={busy} onClick={() => { setTitle(session.title); setEditing(true) }}>{t('session.rename')}</button>
          {session.state !== 'recording' ? (
            <button type="button" disabled={busy} onClick={() => {
              if (session.archivedAt) void patch({ archived: false })
              else if (window.confirm(t('session.archiveConfirm', { title: session.title }))) void patch({ archived: true })
            }}>{t(session.archivedAt ? 'session.restore' : 'session.archive')}</button>
          ) : null}
        </div>
      )}
      <ErrorLine error={error} />
    </div>
  )
}
