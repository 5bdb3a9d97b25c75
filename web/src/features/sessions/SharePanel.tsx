// A session's share link: shown when one is live, made on request, switched to allow comments,
// revoked.
import { useEffect, useState } from 'react'
import { useAction } from '../../lib/api.ts'
import { useI18n } from '../../lib/i18n.ts'
import type { ShareLink } from '../../lib/types.ts'
import { CopyField, ErrorLine } from '../../lib/ui.tsx'
import { getShare, peekShare, revokeShare, updateShare } from './api.ts'

export function SharePanel({ sessionId }: { sessionId: string }) {
  const { t, dateTime } = useI18n()
  const [link, setLink] = useState<ShareLink>()
  const [revoked, setRevoked] = useState(false)
  const { busy, error, run } = useAction()
  // A link made earlier is shown as it is (reading does not create one).
  useEffect(() => {
    let current = true
    peekShare(sessionId).then((found) => { if (current && found) setLink(found) }, () => undefined)
    return () => { current = false }
  }, [sessionId])
  return (
    <section className="card" aria-labelledby="share-title">
      <h2 id="share-title">{t('session.share')}</h2>
      {link ? (
        <>
          <CopyField id="share-url" label={t('session.shareLink')} value={link.shareURL} testId="share-url" />
          <label className="choice">
            <input type="checkbox" checked={link.permission === 'comment'} disabled={busy}
              onChange={(event) => void run(async () => setLink(await updateShare(sessionId, event.target.checked ? 'comment' : 'read')))} />
            {' '}{t('session.shareAllowComments')}
          </label>
          <p className="muted">{t('share.expires', { date: dateTime(link.expiresAt) })}</p>
          <button type="button" className="danger" disabled={busy}
            onClick={() => void run(async () => { await revokeShare(sessionId); setLink(undefined); setRevoked(true) })}>{t('session.shareRevoke')}</button>
        </>
      ) : (
        <>
          {revoked ? <p role="status">{t('session.shareRevoked')}</p> : null}
          <button type="button" disabled={busy} onClick={() => void run(async () => { setLink(await getShare(sessionId)); setRevoked(false) })}>{t('session.shareCreate')}</button>
        </>
      )}
      <ErrorLine error={error} />
    </section>
  )
}
