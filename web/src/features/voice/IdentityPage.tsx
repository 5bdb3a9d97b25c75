// A workspace voice identity (reached from a named speaker in a session): rename, link to a member,
// merge into another identity, move a session speaker out of it, delete; its recent utterances.
import { useState } from 'react'
import { useAction } from '../../lib/api.ts'
import { translate, useI18n } from '../../lib/i18n.ts'
import { ErrorLine, formatMs, Link, Loading, PageTitle } from '../../lib/ui.tsx'
import { navigate } from '../../app/router.ts'
import { useMembers } from '../work/api.ts'
import { deleteIdentity, mergeIdentity, patchIdentity, splitIdentity, useIdentity } from './api.ts'

export default function IdentityPage({ id }: { id: string }) {
  const { t } = useI18n()
  const detail = useIdentity(id)
  const members = useMembers()
  const [name, setName] = useState<string>()
  const [target, setTarget] = useState('')
  const [confirmDelete, setConfirmDelete] = useState(false)
  const [message, setMessage] = useState<string>()
  const { busy, error, run } = useAction()
  if (!detail.data) {
    const title = t('voice.identity')
    return <section><PageTitle title={title}>{title}</PageTitle>{detail.error ? <ErrorLine error={detail.error.message} /> : <Loading />}</section>
  }
  const { identity, utterances } = detail.data
  return (
    <section>
      <PageTitle title={identity.displayName}>{identity.displayName}</PageTitle>
      <p className="muted">{t(identity.source === 'enrollment' ? 'voice.sourceEnrollment' : 'voice.sourceManual')}</p>
      {message ? <p role="status">{message}</p> : null}
      <form className="card" onSubmit={(event) => {
        event.preventDefault()
        void run(async () => { await patchIdentity(id, { displayName: (name ?? identity.displayName).trim(), expectedRevision: identity.revision }); setMessage(translate('voice.renamed')) })
      }}>
        <label htmlFor="identity-name">{t('voice.displayName')}</label>
        <input id="identity-name" required maxLength={120} value={name ?? identity.displayName} onChange={(event) => setName(event.target.value)} />
        <button type="submit" disabled={busy}>{t('common.save')}</button>
      </form>
      <div className="card">
        <label htmlFor="identity-member">{t('voice.linkMember')}</label>
        <select id="identity-member" value={identity.memberAccountId ?? ''} disabled={busy} onChange={(event) => void run(async () => {
          await patchIdentity(id, { memberAccountId: event.target.value || null, expectedRevision: identity.revision })
          setMessage(translate('voice.linked'))
        })}>
          <option value="">{t('voice.noMember')}</option>
          {(members.data?.members ?? []).map((member) => <option key={member.accountId} value={member.accountId}>{member.name || member.email}</option>)}
        </select>
      </div>
      <form className="card" onSubmit={(event) => {
        event.preventDefault()
        void run(async () => { const merged = await mergeIdentity(id, target.trim()); navigate(`/voice/identities/${merged.identity.id}`, { replace: true }) })
      }}>
        <label htmlFor="merge-target">{t('voice.mergeInto')}</label>
        <input id="merge-target" required maxLength={80} value={target} onChange={(event) => setTarget(event.target.value)} aria-describedby="merge-help" />
        <p id="merge-help" className="muted">{t('voice.mergeHelp')}</p>
        <button type="submit" disabled={busy || !target.trim()}>{t('voice.merge')}</button>
      </form>
      <h2>{t('voice.speakers')}</h2>
      <ul className="list">
        {identity.sessionSpeakers.map((speaker) => (
          <li key={`${speaker.sessionId}-${speaker.speakerId}`} className="row">
            <Link href={`/sessions/${speaker.sessionId}`}>{t('voice.speakerIn', { speaker: speaker.speakerId })}</Link>
            <span className="muted">{speaker.state}</span>
            {identity.sessionSpeakers.length > 1 ? (
              <button type="button" disabled={busy} onClick={() => void run(async () => { await splitIdentity(id, speaker.sessionId, speaker.speakerId); setMessage(translate('voice.split')) })}>{t('voice.splitOut')}</button>
            ) : null}
          </li>
        ))}
      </ul>
      <h2>{t('voice.utterances')}</h2>
      {utterances.length === 0 ? <p className="muted">{t('common.none')}</p> : (
        <ul className="list">
          {utterances.map((utterance) => (
            <li key={utterance.segmentId}><Link href={`/sessions/${utterance.sessionId}?segment=${encodeURIComponent(utterance.segmentId)}`}>{formatMs(utterance.startMs)}</Link> {utterance.text}</li>
          ))}
        </ul>
      )}
      <div className="row">
        {!confirmDelete ? <button type="button" className="danger" onClick={() => setConfirmDelete(true)}>{t('voice.deleteIdentity')}</button> : (
          <>
            <p>{t('voice.deleteIdentityConfirm')}</p>
            <button type="button" className="danger" disabled={busy} onClick={() => void run(async () => { await deleteIdentity(id); navigate('/voice', { replace: true }) })}>{t('voice.deleteYes')}</button>
            <button type="button" onClick={() => setConfirmDelete(false)}>{t('common.cancel')}</button>
          </>
        )}
      </div>
      <ErrorLine error={error} />
    </section>
  )
}
