// The session's speakers with their names (a member's once their voice is identified, else
// "Speaker N"), a link to the voice identity when one is known, and "Not me / opt out".
import { useState } from 'react'
import { useAction } from '../../lib/api.ts'
import { translate, useI18n } from '../../lib/i18n.ts'
import { ErrorLine, Link } from '../../lib/ui.tsx'
import { optOutSpeaker } from '../voice/api.ts'

export function SpeakersPanel({ sessionId, speakerIds, speakers, identities, onLabel }: {
  sessionId: string; speakerIds: string[]; speakers: Record<string, string>; identities: Record<string, string>; onLabel: (speakerId: string, label: string) => void
}) {
  const { t } = useI18n()
  const [confirming, setConfirming] = useState<string>()
  const [message, setMessage] = useState<string>()
  const { busy, error, run } = useAction()
  const ids = [...new Set([...Object.keys(speakers), ...speakerIds])].sort()
  if (ids.length === 0) return null
  return (
    <section className="card" aria-labelledby="speakers-title">
      <h2 id="speakers-title">{t('speakers.title')}</h2>
      <ul className="list">
        {ids.map((speakerId) => (
          <li key={speakerId} data-testid="speaker">
            <div className="row">
              {identities[speakerId] ? <Link href={`/voice/identities/${identities[speakerId]}`}>{speakers[speakerId] ?? speakerId}</Link> : <span>{speakers[speakerId] ?? speakerId}</span>}
              {/* Only speakers the session knows (not a segment's bare id) can be opted out. */}
              {confirming === speakerId || !(speakerId in speakers) ? null : <button type="button" className="link" onClick={() => setConfirming(speakerId)}>{t('speakers.notMe')}</button>}
            </div>
            {confirming === speakerId ? (
              <div className="row" role="group" aria-label={t('speakers.notMe')}>
                <p>{t('speakers.optOutConfirm', { speaker: speakers[speakerId] ?? speakerId })}</p>
                <button type="button" className="danger" disabled={busy} onClick={() => void run(async () => {
                  const result = await optOutSpeaker(sessionId, speakerId)
                  onLabel(speakerId, result.speaker.label)
                  setConfirming(undefined)
                  setMessage(translate('speakers.optedOut', { speaker: result.speaker.label }))
                })}>{t('speakers.optOut')}</button>
                <button type="button" onClick={() => setConfirming(undefined)}>{t('common.cancel')}</button>
              </div>
            ) : null}
          </li>
        ))}
      </ul>
      {message ? <p role="status">{message}</p> : null}
      <ErrorLine error={error} />
    </section>
  )
}
