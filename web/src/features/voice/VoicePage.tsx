// The caller's voice profile: its status, enrollment (consent, utterances recorded here, embeddings
// computed here, saved with the profile's revision), deletion; and where voice identities are found.
import { useEffect, useRef, useState } from 'react'
import { useAction } from '../../lib/api.ts'
import { translate, useI18n, type MessageKey } from '../../lib/i18n.ts'
import type { EnrollmentCreated } from '../../lib/types.ts'
import { ErrorLine, Loading, PageTitle } from '../../lib/ui.tsx'
import { deleteVoiceProfile, saveEnrollment, startEnrollment, useVoiceProfile } from './api.ts'
import { canEmbed, embedUtterance, recordUtterance, type UtteranceRecording } from './utterance.ts'

export default function VoicePage() {
  const { t, dateTime } = useI18n()
  const profile = useVoiceProfile()
  const [enrolling, setEnrolling] = useState(false)
  const [confirmDelete, setConfirmDelete] = useState(false)
  const [message, setMessage] = useState<string>()
  const { busy, error, run } = useAction()
  const title = t('voice.title')
  if (!profile.data) {
    return <section><PageTitle title={title}>{title}</PageTitle>{profile.error ? <ErrorLine error={profile.error.message} /> : <Loading />}</section>
  }
  const data = profile.data
  return (
    <section className="voice-page">
      <PageTitle title={title}>{title}</PageTitle>
      <p>{t('voice.intro')}</p>
      <section className="card" aria-labelledby="profile-title">
        <h2 id="profile-title">{t('voice.profile')}</h2>
        <p data-testid="voice-status" data-status={data.status}><strong>{t(`voice.status.${data.status}` as MessageKey)}</strong></p>
        {data.enrolledAt ? <p className="muted">{t('voice.enrolledAt', { date: dateTime(data.enrolledAt), count: data.embeddingCount })}</p> : null}
        {data.optedOutWorkspaceIds.length > 0 ? <p className="muted">{t('voice.optedOut', { count: data.optedOutWorkspaceIds.length })}</p> : null}
        {message ? <p role="status">{message}</p> : null}
        <div className="row">
          {!enrolling ? <button type="button" className="primary" onClick={() => { setMessage(undefined); setEnrolling(true) }}>{t(data.status === 'not-enrolled' ? 'voice.enroll' : 'voice.reenroll')}</button> : null}
          {data.status !== 'not-enrolled' && !confirmDelete ? <button type="button" className="danger" onClick={() => setConfirmDelete(true)}>{t('voice.delete')}</button> : null}
        </div>
        {confirmDelete ? (
          <div className="row" role="group" aria-label={t('voice.delete')}>
            <p>{t('voice.deleteConfirm')}</p>
            <button type="button" className="danger" disabled={busy} onClick={() => void run(async () => {
              const result = await deleteVoiceProfile()
              setConfirmDelete(false)
              setMessage(translate('voice.deleted', { identities: result.deletedIdentities, speakers: result.unnamedSpeakers }))
            })}>{t('voice.deleteYes')}</button>
            <button type="button" onClick={() => setConfirmDelete(false)}>{t('common.cancel')}</button>
          </div>
        ) : null}
        <ErrorLine error={error} />
      </section>
      {enrolling ? <Enrollment revision={data.revision} onDone={(text) => { setEnrolling(false); setMessage(text) }} onCancel={() => setEnrolling(false)} /> : null}
      <section aria-labelledby="identities-title">
        <h2 id="identities-title">{t('voice.identities')}</h2>
        <p className="muted">{t('voice.identitiesHelp')}</p>
      </section>
    </section>
  )
}

type Utterance = { ms: number; embedding: number[] }

function Enrollment({ revision, onDone, onCancel }: { revision: number; onDone: (message: string) => void; onCancel: () => void }) {
  const { t } = useI18n()
  const [consent, setConsent] = useState(false)
  const [enrollment, setEnrollment] = useState<EnrollmentCreated>()
  const [utterances, setUtterances] = useState<Utterance[]>([])
  const [recording, setRecording] = useState<UtteranceRecording>()
  const [level, setLevel] = useState(0)
  const [elapsed, setElapsed] = useState(0)
  const [feedback, setFeedback] = useState<string>()
  const { busy, error, run } = useAction()
  const stopRef = useRef<() => void>(() => undefined)

  useEffect(() => {
    if (!recording) return
    const timer = setInterval(() => { setLevel(recording.level()); setElapsed(recording.elapsedMs()) }, 100)
    return () => clearInterval(timer)
  }, [recording])
  useEffect(() => () => { void recording?.stop().catch(() => undefined) }, [recording])

  const manifest = enrollment?.manifest
  const rules = manifest?.enrollment
  const enough = Boolean(rules && utterances.length >= rules.minUtterances)
  const full = Boolean(rules && utterances.length >= rules.maxUtterances)

  const stop = async () => {
    if (!recording || !rules) return
    const current = recording
    setRecording(undefined)
    const samples = await current.stop()
    const ms = (samples.length / 16_000) * 1000
    if (ms < rules.minUtteranceMs) { setFeedback(translate('voice.tooShort', { seconds: Math.ceil(rules.minUtteranceMs / 1000) })); return }
    const embedding = embedUtterance(samples)
    if (!embedding) { setFeedback(translate('voice.tooQuiet')); return }
    setUtterances((list) => [...list, { ms, embedding }])
    setFeedback(translate('voice.utteranceOk', { n: utterances.length + 1 }))
  }
  stopRef.current = () => void run(stop)

  return (
    <section className="card" aria-labelledby="enroll-title">
      <h2 id="enroll-title">{t('voice.enrollTitle')}</h2>
      {!enrollment ? (
        <form onSubmit={(event) => { event.preventDefault(); void run(async () => setEnrollment(await startEnrollment())) }}>
          <label className="choice"><input type="checkbox" required checked={consent} onChange={(event) => setConsent(event.target.checked)} /> {t('voice.consent')}</label>
          <div className="row">
            <button type="submit" className="primary" disabled={busy || !consent}>{t('voice.start')}</button>
            <button type="button" onClick={onCancel}>{t('common.cancel')}</button>
          </div>
        </form>
      ) : manifest && !canEmbed(manifest) ? (
        <p role="alert" className="error">{t('voice.unsupportedModel', { engine: manifest.engine })}</p>
      ) : rules ? (
        <>
          <p>{t('voice.instructions', { min: rules.minUtterances, max: rules.maxUtterances, seconds: Math.ceil(rules.minUtteranceMs / 1000), maxSeconds: Math.floor(rules.maxUtteranceMs / 1000) })}</p>
          <p>{t('voice.prompt')}</p>
          <p role="status" data-testid="enroll-progress">{enough
            ? t('voice.progressEnough', { count: utterances.length, max: rules.maxUtterances })
            : t('voice.progress', { count: utterances.length, min: rules.minUtterances })}</p>
          {recording ? (
            <>
              <meter min={0} max={1} value={level} aria-label={t('voice.level')} />
              <span className="muted"> {Math.floor(elapsed / 1000)} s</span>
            </>
          ) : null}
          <div className="row">
            {recording
              ? <button type="button" className="danger" onClick={() => stopRef.current()}>{t('voice.stopUtterance')}</button>
              : <button type="button" disabled={busy || full} onClick={() => void run(async () => {
                setFeedback(undefined)
                try {
                  setRecording(await recordUtterance(rules.maxUtteranceMs, () => stopRef.current()))
                } catch {
                  setFeedback(translate('voice.noMicrophone'))
                }
              })}>{t(utterances.length ? 'voice.recordAnother' : 'voice.recordUtterance')}</button>}
            <button type="button" className="primary" disabled={busy || !enough || Boolean(recording)} onClick={() => void run(async () => {
              await saveEnrollment(enrollment.enrollmentId, { modelVersion: manifest!.modelVersion, embeddings: utterances.map((item) => item.embedding), expectedRevision: enrollment.revision ?? revision })
              onDone(translate('voice.saved'))
            })}>{t('voice.save')}</button>
            {utterances.length > 0 ? <button type="button" disabled={busy || Boolean(recording)} onClick={() => { setUtterances([]); setFeedback(undefined) }}>{t('voice.startOver')}</button> : null}
            <button type="button" onClick={onCancel}>{t('common.cancel')}</button>
          </div>
          {feedback ? <p role="status">{feedback}</p> : null}
        </>
      ) : null}
      <ErrorLine error={error} />
    </section>
  )
}
