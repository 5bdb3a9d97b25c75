// Record a meeting: choose what to capture, record in 1 s chunks into the durable queue, watch
// how long it has run, the input level, what is saved, and the live transcript; end the session
// once every chunk is uploaded.
import { useEffect, useRef, useState } from 'react'
import { guardLeaving, navigate, useLocation } from '../../app/router.ts'
import { api, invalidate, useAction, useResource } from '../../lib/api.ts'
import { translate, useI18n } from '../../lib/i18n.ts'
import type { CaptureMode, Project, SessionCreateResult, SessionSnapshot } from '../../lib/types.ts'
import { ErrorLine, formatMs, Link, PageTitle } from '../../lib/ui.tsx'
import { useCanEdit, useCurrentAccount } from '../auth/api.ts'
import { RecordingLimitNotice, useRecordingLimit } from '../billing/RecordingLimit.tsx'
import { createSession, endSession } from '../sessions/api.ts'
import { LiveTranscript } from '../sessions/LiveTranscript.tsx'
import { drained, onUploadState, type RefusedChunk, type UploadState } from './chunk-queue.ts'
import { takeRecordingLock, useRecordingElsewhere } from './recording-lock.ts'
import { UploadRecording } from './UploadRecording.tsx'
import { canCaptureSystemAudio, CaptureRefused, CHUNK_MS, openDevices, startRecording, type Devices, type Recording } from './recorder.ts'

// The meeting this browser is recording for an account, kept until it is ended here: coming back to
// Record after leaving the page says that it is still open (Start continues it: reusedExisting).
const openKey = (accountId: string) => `confer.openRecording.${accountId}`

export function RecordPage() {
  const { t, dateTime } = useI18n()
  const [mode, setMode] = useState<CaptureMode>('microphone')
  const [title, setTitle] = useState('')
  // The project the meeting belongs to (its memory learns from it); `?project=` comes from a project's page.
  const { query } = useLocation()
  const [projectId, setProjectId] = useState(query.get('project') ?? '')
  const projects = useResource<Project[]>('/v1/projects?status=active')
  const [session, setSession] = useState<SessionCreateResult>()
  const [recorded, setRecorded] = useState(0)
  const [upload, setUpload] = useState<UploadState>()
  const [ending, setEnding] = useState(false)
  // System audio was asked for, but the shared screen or tab has none: said, not hidden.
  const [noSystemAudio, setNoSystemAudio] = useState(false)
  const recording = useRef<Recording | undefined>(undefined)
  const meter = useRef<HTMLMeterElement>(null)
  const { busy, error, run, setError } = useAction()
  const systemAudio = canCaptureSystemAudio()
  const accountId = useCurrentAccount().data?.account.id
  const canEdit = useCanEdit()
  const [stillOpen, setStillOpen] = useState<SessionSnapshot>()
  // Another tab of this browser records (recording-lock.ts); this one holds the lock while it records.
  const elsewhere = useRecordingElsewhere(accountId, !session)
  // The plan refuses new recordings now (billing with Stripe): said before Start, not after the microphone opened.
  const limited = Boolean(useRecordingLimit())
  const releaseLock = useRef<() => void>(undefined)
  const unlock = () => { releaseLock.current?.(); releaseLock.current = undefined }
  // The server refused this meeting's audio (ended on its page or in another tab, removed): recording stopped.
  const [stopped, setStopped] = useState<RefusedChunk>()
  useEffect(() => {
    const id = accountId ? localStorage.getItem(openKey(accountId)) : null
    if (!accountId || !id) return
    api.get<SessionSnapshot>(`/v1/sessions/${encodeURIComponent(id)}`).then((found) => {
      if (found.state === 'recording') setStillOpen(found)
      else localStorage.removeItem(openKey(accountId))
    }, () => localStorage.removeItem(openKey(accountId)))
  }, [accountId])

  useEffect(() => onUploadState(setUpload), [])
  // `?project=` of a project that is not active (archived, gone): the list cannot show it, so it is
  // not sent either — what the page shows is what the meeting gets.
  useEffect(() => {
    if (projects.data && projectId && !projects.data.some((project) => project.id === projectId)) setProjectId('')
  }, [projects.data, projectId])
  useEffect(() => {
    if (!session) return
    let frame = 0
    const tick = () => {
      if (meter.current && recording.current) meter.current.value = recording.current.level()
      frame = requestAnimationFrame(tick)
    }
    frame = requestAnimationFrame(tick)
    return () => cancelAnimationFrame(frame)
  }, [session])
  useEffect(() => () => { void recording.current?.stop(); unlock() }, [])
  useEffect(() => {
    const refused = upload?.refused
    if (!session || !refused || refused.sessionId !== session.id || ending || stopped) return
    setStopped(refused)
    const current = recording.current
    recording.current = undefined
    void current?.stop()
    unlock()
    if (accountId) localStorage.removeItem(openKey(accountId))
    invalidate('/v1/sessions')
  }, [upload?.refused, session, ending, stopped, accountId])
  // How long this recording has run, shown as it goes (a second at a time).
  const [elapsed, setElapsed] = useState(0)
  useEffect(() => {
    if (!session || stopped) return
    const started = Date.now() - elapsed
    const timer = window.setInterval(() => setElapsed(Date.now() - started), 1000)
    return () => window.clearInterval(timer)
    // Stopped by a refusal: the time stays where it was.
  }, [session, stopped])
  // Leaving the page stops the microphone: while a meeting records, a link or a reload asks first.
  useEffect(() => {
    if (!session) return
    const onUnload = (event: BeforeUnloadEvent) => { if (recording.current) event.preventDefault() }
    window.addEventListener('beforeunload', onUnload)
    const release = guardLeaving(() => (recording.current ? translate('record.leaveWarning') : undefined))
    return () => { window.removeEventListener('beforeunload', onUnload); release() }
  }, [session])

  const start = () => run(async () => {
    // The inputs first: a refused microphone must not leave a session "recording" forever.
    const release = accountId ? await takeRecordingLock(accountId) : () => {}
    if (!release) { setError(t('record.otherTab')); return }
    let devices: Devices
    try {
      devices = await openDevices(mode)
    } catch (caught) {
      release()
      setError(t(caught instanceof CaptureRefused && caught.what === 'display' ? 'record.displayDenied' : 'record.micDenied'))
      return
    }
    let created: SessionCreateResult
    try {
      // Untitled: named by when it starts, in the reader's language and time zone (the server's
      // default is English and UTC).
      const named = title.trim() || t('record.defaultTitle', { date: dateTime(new Date().toISOString()) })
      created = await createSession({ captureMode: mode, title: named, ...(projectId && projects.data?.some((project) => project.id === projectId) ? { projectId } : {}) })
    } catch (caught) {
      devices.close()
      release()
      throw caught
    }
    releaseLock.current = release
    recording.current = startRecording(created.id, devices, setRecorded)
    setNoSystemAudio(mode === 'microphone-and-system-audio' && !recording.current.systemAudio)
    setSession(created)
    if (accountId) localStorage.setItem(openKey(accountId), created.id)
    invalidate('/v1/sessions')
  })

  const end = () => run(async () => {
    if (!session) return
    setEnding(true)
    await recording.current?.stop()
    recording.current = undefined
    unlock()
    await drained(session.id)
    await endSession(session.id)
    if (accountId) localStorage.removeItem(openKey(accountId))
    invalidate('/v1/sessions')
    if (projectId) invalidate(`/v1/projects/${projectId}`)
    navigate(`/sessions/${session.id}`)
  })

  // The project the meeting records into, named while it records (what its memory will learn from).
  const recordingInto = session?.projectId ? projects.data?.find((project) => project.id === session.projectId) : undefined
  if (!session && !canEdit) {
    // A view member may read and comment; a new meeting would be refused (403).
    return (
      <section>
        <PageTitle title={t('record.title')}>{t('record.title')}</PageTitle>
        <p className="notice" data-testid="view-only">{t('record.viewOnly')}</p>
      </section>
    )
  }
  if (!session) {
    return (
      <section>
        <PageTitle title={t('record.title')}>{t('record.title')}</PageTitle>
        {stillOpen ? (
          <p className="warning" role="status" data-testid="still-open">
            {t('record.stillOpen', { title: stillOpen.title, time: dateTime(stillOpen.startedAt) })}{' '}
            <Link href={`/sessions/${stillOpen.id}`}>{t('record.openIt')}</Link>
          </p>
        ) : null}
        {elsewhere ? <p className="warning" role="status" data-testid="recording-elsewhere">{t('record.otherTab')}</p> : null}
        <RecordingLimitNotice />
        <form className="card" onSubmit={(event) => { event.preventDefault(); void start() }}>
          <fieldset>
            <legend>{t('record.mode')}</legend>
            <label className="choice"><input type="radio" name="mode" checked={mode === 'microphone'} onChange={() => setMode('microphone')} /> {t('record.mode.microphone')}</label>
            <label className="choice">
              <input type="radio" name="mode" disabled={!systemAudio} checked={mode === 'microphone-and-system-audio'} onChange={() => setMode('microphone-and-system-audio')} />
              {' '}{t('record.mode.system')}
            </label>
            {systemAudio ? null : <p className="muted">{t('record.systemUnavailable')}</p>}
          </fieldset>
          <label htmlFor="session-title">{t('record.sessionTitle')}</label>
          <input id="session-title" value={title} maxLength={200} onChange={(event) => setTitle(event.target.value)} />
          <label htmlFor="session-project">{t('record.project')}</label>
          <div>
            <select id="session-project" value={projectId} onChange={(event) => setProjectId(event.target.value)}>
              <option value="">{t('record.noProject')}</option>
              {(projects.data ?? []).map((project) => <option key={project.id} value={project.id}>{project.name}</option>)}
            </select>
          </div>
          {/* A project from `?project=` is sent only once the list says it is active (the effect above). */}
          <button type="submit" className="primary" disabled={busy || elsewhere || limited || (projectId !== '' && !projects.data && !projects.error)}>{t('record.start')}</button>
        </form>
        {upload && upload.pending > 0 ? <p role="status">{t('record.resumePending', { count: upload.pending })}</p> : null}
        <ErrorLine error={error} />
        <UploadRecording blocked={limited} title={title} projectId={projectId && projects.data?.some((project) => project.id === projectId) ? projectId : undefined} />
      </section>
    )
  }
  return (
    <section>
      <PageTitle title={session.title}>{session.title}</PageTitle>
      {recordingInto ? <p className="muted" data-testid="recording-project">{t('record.intoProject', { project: recordingInto.name })}</p> : null}
      <div className="card recording">
        {stopped ? (
          <>
            <p className="warning" role="alert" data-testid="recording-stopped">
              {stopped.status === 409 ? t('record.endedElsewhere') : t('record.refused', { reason: stopped.message })}
            </p>
            <Link href={`/sessions/${session.id}`}>{t('record.open')}</Link>
          </>
        ) : recordingControls()}
      </div>
      <h2>{t('record.live')}</h2>
      <LiveTranscript sessionId={session.id} conversationId={session.conversationId} />
    </section>
  )

  // A call, not a component: the controls keep their DOM (and the End button its focus) across the timer's renders.
  function recordingControls() {
    return (
      <>
        <p className="rec-time"><span className="rec-dot" aria-hidden="true">●</span> <span role="timer" data-testid="elapsed">{t('record.elapsed', { time: formatMs(elapsed) })}</span></p>
        <label htmlFor="level">{t('record.level')}</label>
        <meter id="level" ref={meter} min={0} max={1} low={0.05} high={0.8} optimum={0.3} value={0} />
        {/* Chunks are a second each: what waits is said in seconds of audio, not in chunks. */}
        <p role="status" data-testid="chunk-status" data-recorded={recorded} data-pending={upload?.pending ?? 0}>
          {(upload?.pending ?? 0) === 0 ? t('record.allSaved') : t('record.waitingSeconds', { seconds: Math.round((upload?.pending ?? 0) * CHUNK_MS / 1000) })}
        </p>
        {session?.reusedExisting ? <p className="warning" role="status" data-testid="reused-session">{t('record.reused', { time: dateTime(session.startedAt) })}</p> : null}
        {noSystemAudio ? <p className="warning" role="status" data-testid="no-system-audio">{t('record.noSystemAudio')}</p> : null}
        {upload?.offline ? <p className="warning" role="alert">{t('record.offline')}</p> : null}
        <button type="button" className="danger" disabled={busy || ending} onClick={() => void end()}>{t('record.end')}</button>
        <ErrorLine error={error} />
      </>
    )
  }
}
