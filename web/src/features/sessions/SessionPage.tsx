// A session: its transcript (live while it records or is processed), its work set, its share link;
// the conversation's events keep all of it current.
import { useEffect, useMemo, useRef, useState } from 'react'
import { invalidate, peek, useAction, useResource } from '../../lib/api.ts'
import { useI18n, type MessageKey } from '../../lib/i18n.ts'
import { openStream, type RealtimeEvent } from '../../lib/realtime.ts'
import type { SessionSnapshot, WorkSetDetail } from '../../lib/types.ts'
import { ErrorLine, Loading, PageTitle } from '../../lib/ui.tsx'
import { useCurrentAccount } from '../auth/api.ts'
import { useConversationWorkSets, workSetPath } from '../work/api.ts'
import { WorkSetPanel } from '../work/WorkSetPanel.tsx'
import { SessionProject } from './SessionProject.tsx'
import { SessionTitleTools } from './SessionTitle.tsx'
import { SharePanel } from './SharePanel.tsx'
import { endSession, loadTranscript } from './api.ts'
import { useSegments, type LiveSegment } from './LiveTranscript.tsx'
import { TranscriptList } from './TranscriptList.tsx'
import { SpeakersPanel } from './SpeakersPanel.tsx'
import { lasted } from './SessionsPage.tsx'
import { useLocation } from '../../app/router.ts'

type Suggestion = { identityId: string; displayName: string; score: number }

/** The map with `key` set to `value`, or without `key` when there is no value. */
function without<T>(map: Record<string, T>, key: string, value: T | undefined): Record<string, T> {
  const next = { ...map }
  if (value === undefined) delete next[key]
  else next[key] = value
  return next
}

type Refinement = { state: 'running' | 'ready' | 'failed'; segmentsProcessed: number; itemsFound: number; lastError?: string }

export function SessionPage({ id }: { id: string }) {
  const { t, dateTime } = useI18n()
  const session = useResource<SessionSnapshot>(`/v1/sessions/${id}`)
  const current = useCurrentAccount()
  const sets = useConversationWorkSets(session.data?.conversationId)
  const [segments, addSegments] = useSegments()
  const [speakers, setSpeakers] = useState<Record<string, string>>({})
  const [identities, setIdentities] = useState<Record<string, string>>({})
  const [suggestions, setSuggestions] = useState<Record<string, Suggestion>>({})
  const { query } = useLocation()
  const focusSegment = query.get('segment')
  const focusWorkObject = query.get('workObject')
  const [refinement, setRefinement] = useState<Refinement>()
  const { busy, error, run } = useAction()
  const conversationId = session.data?.conversationId
  const workSetId = sets.data?.workSets[0]?.id
  const workSetRef = useRef(workSetId)
  workSetRef.current = workSetId

  useEffect(() => {
    let cancelled = false
    // Each page shows as it arrives: the first rows do not wait for the last page.
    void loadTranscript(id, undefined, (page) => {
      if (cancelled) return
      addSegments(page.segments as LiveSegment[])
      if (!page.speakers.length) return
      setSpeakers((map) => ({ ...Object.fromEntries(page.speakers.map((speaker) => [speaker.speakerId, speaker.label])), ...map }))
      setIdentities((map) => ({ ...Object.fromEntries(page.speakers.flatMap((speaker) => speaker.voice?.identityId ? [[speaker.speakerId, speaker.voice.identityId]] : [])), ...map }))
      setSuggestions((map) => ({ ...Object.fromEntries(page.speakers.flatMap((speaker) => speaker.voice?.suggestion ? [[speaker.speakerId, speaker.voice.suggestion]] : [])), ...map }))
    }).catch(() => undefined)
    return () => { cancelled = true }
  }, [id, addSegments])

  useEffect(() => {
    if (!conversationId) return
    // The stream replays the conversation's log from its start: work events the loaded set already
    // reflects (its revision and updatedAt are at least theirs) do not refetch it.
    const newest = { revision: 0, at: '' }
    let timer: ReturnType<typeof setTimeout> | undefined
    const check = () => {
      const listPath = `/v1/conversations/${conversationId}/workset`
      const setId = workSetRef.current
      const list = peek(listPath)
      if (!setId) {
        if (list?.loading) timer = setTimeout(check, 150)
        else invalidate(listPath)
        return
      }
      const loaded = peek<WorkSetDetail>(workSetPath(setId))
      if (!loaded?.data) { timer = setTimeout(check, 150); return }
      const { revision, updatedAt } = loaded.data.workSet
      if (newest.revision > revision || newest.at > updatedAt) invalidate(workSetPath(setId))
    }
    const refreshWork = (event: RealtimeEvent) => {
      if (event.type === 'workset.updated') newest.revision = Math.max(newest.revision, Number(event.data?.revision) || 0)
      else if (event.at && event.at > newest.at) newest.at = event.at
      clearTimeout(timer)
      timer = setTimeout(check, 150)
    }
    const close = openStream({
      path: `/v1/conversations/${conversationId}/events`,
      onEvent(event) {
        if (event.type === 'transcript.partial' || event.type === 'transcript.final') {
          const segment = event.data as LiveSegment & { speakerLabel?: string }
          addSegments([segment])
          if (segment.speakerId && segment.speakerLabel) setSpeakers((map) => ({ ...map, [segment.speakerId!]: segment.speakerLabel! }))
        }
        else if (event.type === 'speaker.updated') {
          const { speakerId, label, identityId, suggestion } = event.data as { speakerId: string; label: string; identityId?: string; suggestion?: Suggestion }
          // A replayed event that changes nothing does not re-render.
          setSpeakers((map) => (map[speakerId] === label ? map : { ...map, [speakerId]: label }))
          setIdentities((map) => (map[speakerId] === identityId ? map : without(map, speakerId, identityId)))
          setSuggestions((map) => (map[speakerId] === suggestion ? map : without(map, speakerId, suggestion)))
        }
        else if (event.type === 'session.updated') {
          // A replayed snapshot no newer than the loaded one changes nothing.
          const loaded = peek<SessionSnapshot>(`/v1/sessions/${id}`)?.data
          if (!loaded || !(String(event.data?.updatedAt ?? '') <= loaded.updatedAt)) invalidate(`/v1/sessions/${id}`)
        }
        else if (event.type === 'refinement.updated') { setRefinement(event.data as Refinement); refreshWork(event) }
        else if (event.type.startsWith('workobject.') || event.type.startsWith('workset.')) refreshWork(event)
      },
    })
    return () => { clearTimeout(timer); close() }
  }, [conversationId, id, addSegments])

  // A source opened from memory or an answer: the segment or work object it points at.
  useEffect(() => {
    if (!focusWorkObject || !sets.data) return
    const timer = setTimeout(() => document.querySelector(`[data-work-object-id="${CSS.escape(focusWorkObject)}"]`)?.scrollIntoView({ block: 'center' }), 300)
    return () => clearTimeout(timer)
  }, [focusWorkObject, sets.data])

  // A work object's quote names its speaker as the transcript does now (work/quote.ts).
  const segmentOf = useMemo(() => {
    const byId = new Map(segments.map((segment) => [segment.id, segment]))
    return (segmentId: string) => {
      const segment = byId.get(segmentId)
      return segment ? { speaker: segment.speakerId ? speakers[segment.speakerId] : undefined, text: segment.text } : undefined
    }
  }, [segments, speakers])
  // Where the transcript reaches: how long the meeting's audio is at least.
  const audioMs = useMemo(() => segments.reduce((most, segment) => Math.max(most, segment.endMs), 0), [segments])
  const speakerIds = useMemo(() => [...new Set(segments.map((segment) => segment.speakerId).filter((value): value is string => Boolean(value)))], [segments])

  if (!session.data) return session.error ? <ErrorLine error={session.error.message} /> : <Loading />
  const snapshot = session.data
  const canEdit = current.data?.membership?.contentPermission === 'edit'
  const me = current.data?.account.id ?? ''
  return (
    <div className="session-page">
      <PageTitle title={snapshot.title}>{snapshot.title}</PageTitle>
      <p className="meta">
        <span className={`state state-${snapshot.state}`} data-testid="session-state" data-state={snapshot.state}>{t(`sessions.state.${snapshot.state}` as MessageKey)}</span>
        <span data-testid="session-when">{dateTime(snapshot.startedAt)}{lasted(snapshot, Math.max(audioMs, snapshot.transcriptEndMs ?? 0)) ? ` · ${lasted(snapshot, Math.max(audioMs, snapshot.transcriptEndMs ?? 0))}` : ''}</span>
        {snapshot.failureReason ? <span className="error">{snapshot.failureReason}</span> : null}
      </p>
      <SessionTitleTools session={snapshot} canEdit={canEdit} />
      <SessionProject session={snapshot} canEdit={canEdit} />
      {snapshot.state === 'recording' && canEdit ? (
        <button type="button" className="danger" disabled={busy} onClick={() => void run(async () => { await endSession(id); invalidate(`/v1/sessions/${id}`) })}>{t('record.end')}</button>
      ) : null}
      {snapshot.state === 'processing' ? <p role="status">{t('session.processing')}</p> : null}
      {refinement?.state === 'running' ? <p role="status">{t('session.refinement', { segments: refinement.segmentsProcessed, items: refinement.itemsFound })}</p> : null}
      <ErrorLine error={error} />
      <div className="columns">
        <section aria-labelledby="transcript-title" className="transcript-column">
          <h2 id="transcript-title">{t('session.transcript')}</h2>
          <TranscriptList segments={segments} speakers={speakers} searchable live={snapshot.state !== 'ready'} focusId={focusSegment ?? undefined} />
        </section>
        <section aria-labelledby="work-title" className="work-column">
          <h2 id="work-title" className="visually-hidden">{t('session.work')}</h2>
          <SpeakersPanel sessionId={id} speakerIds={speakerIds} speakers={speakers} identities={identities} suggestions={suggestions} canEdit={canEdit}
            onLabel={(speakerId, label, identityId) => {
              setSpeakers((map) => ({ ...map, [speakerId]: label }))
              setIdentities((map) => without(map, speakerId, identityId))
              setSuggestions((map) => without(map, speakerId, undefined))
            }} />
          {canEdit ? <SharePanel sessionId={id} /> : null}
          {workSetId ? <WorkSetPanel sessionId={id} workSetId={workSetId} me={me} canEdit={canEdit} focusId={focusWorkObject ?? undefined} segmentOf={segmentOf} /> : <p className="muted">{t('common.none')}</p>}
        </section>
      </div>
    </div>
  )
}
