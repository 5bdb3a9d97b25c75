// The session's speakers with their names (a member's once their voice is identified or a person
// confirmed it, else "Speaker N"), a link to the voice identity when one is known, the engine's
// suggestions to confirm or decline (editors), naming a speaker ("Speaker 2" → "Dana Li", editors),
// and "Not me / opt out".
import { useState } from 'react'
import { useAction } from '../../lib/api.ts'
import { speakerName, translate, useI18n } from '../../lib/i18n.ts'
import { ErrorLine, Link } from '../../lib/ui.tsx'
import { nameSpeaker, optOutSpeaker, patchIdentity } from '../voice/api.ts'

type Suggestion = { identityId: string; displayName: string }

export function SpeakersPanel({ sessionId, speakerIds, speakers, identities, suggestions, canEdit, onLabel }: {
  sessionId: string; speakerIds: string[]; speakers: Record<string, string>; identities: Record<string, string>
  suggestions: Record<string, Suggestion>; canEdit: boolean
  onLabel: (speakerId: string, label: string, identityId?: string) => void
}) {
  const { t } = useI18n()
  const [confirming, setConfirming] = useState<string>()
  const [naming, setNaming] = useState<string>()
  const [name, setName] = useState('')
  const [message, setMessage] = useState<string>()
  const { busy, error, run } = useAction()
  const ids = [...new Set([...Object.keys(speakers), ...speakerIds])].sort()
  if (ids.length === 0) return null
  const answer = (speakerId: string, suggestion: Suggestion, confirm: boolean) => void run(async () => {
    const ref = { sessionId, speakerId }
    await patchIdentity(suggestion.identityId, confirm ? { confirmSpeaker: ref } : { declineSpeaker: ref })
    const label = confirm ? suggestion.displayName : speakers[speakerId] ?? speakerId
    onLabel(speakerId, label, confirm ? suggestion.identityId : undefined)
    setMessage(confirm ? translate('speakers.confirmed', { name: label }) : translate('speakers.declined', { speaker: label }))
  })
  return (
    <section className="card" aria-labelledby="speakers-title">
      <h2 id="speakers-title">{t('speakers.title')}</h2>
      <ul className="list">
        {ids.map((speakerId) => {
          const suggestion = suggestions[speakerId]
          return (
            <li key={speakerId} data-testid="speaker">
              <div className="row">
                {identities[speakerId] ? <Link href={`/voice/identities/${identities[speakerId]}`}>{speakerName(speakers[speakerId] ?? speakerId)}</Link> : <span>{speakerName(speakers[speakerId] ?? speakerId)}</span>}
                {/* Only speakers the session knows (not a segment's bare id) can be opted out. */}
                {confirming === speakerId || !(speakerId in speakers) ? null : <button type="button" className="link" onClick={() => setConfirming(speakerId)}>{t('speakers.notMe')}</button>}
                {canEdit && naming !== speakerId ? (
                  <button type="button" className="link" aria-label={t('speakers.nameLabel', { speaker: speakerName(speakers[speakerId] ?? speakerId) })}
                    onClick={() => { setNaming(speakerId); setName(/^Speaker \d+$/.test(speakers[speakerId] ?? '') ? '' : speakers[speakerId] ?? '') }}>{t('speakers.name')}</button>
                ) : null}
              </div>
              {naming === speakerId ? (
                <form className="row" aria-label={t('speakers.nameLabel', { speaker: speakerName(speakers[speakerId] ?? speakerId) })} onSubmit={(event) => {
                  event.preventDefault()
                  void run(async () => {
                    const result = await nameSpeaker(sessionId, speakerId, name.trim() || null)
                    onLabel(speakerId, result.speaker.label)
                    setNaming(undefined)
                    setMessage(translate('speakers.named', { name: speakerName(result.speaker.label) }))
                  })
                }}>
                  <label htmlFor={`speaker-name-${speakerId}`}>{t('speakers.nameField')}</label>
                  <input id={`speaker-name-${speakerId}`} value={name} maxLength={120} aria-describedby={`speaker-name-${speakerId}-hint`} onChange={(event) => setName(event.target.value)} />
                  <p className="muted small" id={`speaker-name-${speakerId}-hint`}>{t('speakers.nameHint')}</p>
                  <button type="submit" className="primary" disabled={busy}>{t('common.save')}</button>
                  <button type="button" onClick={() => setNaming(undefined)}>{t('common.cancel')}</button>
                </form>
              ) : null}
              {suggestion && canEdit ? (
                <div className="row" role="group" aria-label={t('speakers.suggested', { name: suggestion.displayName })} data-testid="speaker-suggestion">
                  <p>{t('speakers.suggested', { name: suggestion.displayName })}</p>
                  <button type="button" disabled={busy} onClick={() => answer(speakerId, suggestion, true)}>{t('speakers.confirm', { name: suggestion.displayName })}</button>
                  <button type="button" disabled={busy} onClick={() => answer(speakerId, suggestion, false)}>{t('speakers.decline')}</button>
                </div>
              ) : null}
              {confirming === speakerId ? (
                <div className="row" role="group" aria-label={t('speakers.notMe')}>
                  <p>{t('speakers.optOutConfirm', { speaker: speakerName(speakers[speakerId] ?? speakerId) })}</p>
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
          )
        })}
      </ul>
      {message ? <p role="status">{message}</p> : null}
      <ErrorLine error={error} />
    </section>
  )
}
