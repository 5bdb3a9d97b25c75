// "Upload a recording" on the record page: a meeting recorded elsewhere becomes a session like a
// live one (same title and project fields): decoded in the browser, queued, uploaded, ended; the
// session page then shows it being transcribed.
import { useRef, useState } from 'react'
import { navigate } from '../../app/router.ts'
import { invalidate, useAction, useResource } from '../../lib/api.ts'
import { useI18n } from '../../lib/i18n.ts'
import { ErrorLine, formatMs } from '../../lib/ui.tsx'
import { createSession, endSession } from '../sessions/api.ts'
import { drained } from './chunk-queue.ts'
import { decodeRecording, durationMs, queueRecording, UndecodableFile } from './upload.ts'

/** `blocked`: the plan refuses new recordings now (the record page says why). */
export function UploadRecording({ title, projectId, blocked = false }: { title: string; projectId?: string; blocked?: boolean }) {
  const { t, dateTime } = useI18n()
  const input = useRef<HTMLInputElement>(null)
  const [file, setFile] = useState<File>()
  const [step, setStep] = useState<string>()
  const { busy, error, run, setError } = useAction()
  // A server without its own speech recognition (STT_ENGINE=client) would store the file but never transcribe it.
  const health = useResource<{ speech?: { engine?: string } }>('/healthz')
  const noEngine = health.data?.speech?.engine === 'client'
  const upload = () => run(async () => {
    if (!file) return
    setStep(t('upload.decoding'))
    let samples: Int16Array
    try {
      samples = await decodeRecording(file)
    } catch (caught) {
      setStep(undefined)
      if (caught instanceof UndecodableFile) { setError(t('upload.undecodable', { name: file.name })); return }
      throw caught
    }
    const named = title.trim() || file.name.replace(/\.[^.]+$/, '').slice(0, 200) || t('record.defaultTitle', { date: dateTime(new Date().toISOString()) })
    const created = await createSession({ captureMode: 'microphone', title: named, ...(projectId ? { projectId } : {}) })
    // An open meeting of this account would take the file's audio on its end: refused instead.
    if (created.reusedExisting) { setStep(undefined); setError(t('upload.meetingOpen', { title: created.title })); return }
    setStep(t('upload.uploading', { duration: formatMs(durationMs(samples)) }))
    await queueRecording(created.id, samples)
    await drained(created.id)
    await endSession(created.id)
    invalidate('/v1/sessions')
    if (projectId) invalidate(`/v1/projects/${projectId}`)
    navigate(`/sessions/${created.id}`)
  })
  return (
    <form className="card" aria-labelledby="upload-title" onSubmit={(event) => { event.preventDefault(); void upload() }}>
      <h2 id="upload-title">{t('upload.title')}</h2>
      <p className="muted">{t('upload.intro')}</p>
      {noEngine ? <p className="notice" data-testid="upload-no-engine">{t('upload.noEngine')}</p> : null}
      <label htmlFor="upload-file">{t('upload.file')}</label>
      <input id="upload-file" ref={input} type="file" accept="audio/*,video/*" disabled={busy || noEngine || blocked}
        onChange={(event) => { setFile(event.target.files?.[0]); setError(undefined) }} />
      <button type="submit" disabled={busy || !file || noEngine || blocked}>{t('upload.go')}</button>
      {step && busy ? <p role="status" data-testid="upload-step">{step}</p> : null}
      <ErrorLine error={error} />
    </form>
  )
}
