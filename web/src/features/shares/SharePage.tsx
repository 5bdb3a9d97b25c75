// /share/{token}: a shared meeting for someone without an account — its transcript and work,
// and a comment box on each work object when the link allows comments. An expired or revoked
// link (404) says so.
import { useCallback, useEffect, useState } from 'react'
import { ApiError, api, useAction } from '../../lib/api.ts'
import { speakerName, useI18n, type MessageKey } from '../../lib/i18n.ts'
import type { ShareView, Transcript, WorkObject } from '../../lib/types.ts'
import { ErrorLine, Loading, PageTitle } from '../../lib/ui.tsx'
import { loadTranscript } from '../sessions/api.ts'
import type { LiveSegment } from '../sessions/LiveTranscript.tsx'
import { TranscriptList } from '../sessions/TranscriptList.tsx'
import { quotedSummary, type SegmentSpeaker } from '../work/quote.ts'

/** The name a reader outside the workspace comments under, kept in this browser (localStorage). */
const SHARE_NAME = 'confer.shareName'

export function SharePage({ token }: { token: string }) {
  const { t, dateTime } = useI18n()
  const [view, setView] = useState<ShareView>()
  const [segments, setSegments] = useState<LiveSegment[]>([])
  const [failure, setFailure] = useState<string>()
  // Who comments: typed once for every item (it was asked on each one) and kept in this browser for the next link.
  const [name, setNameState] = useState(() => localStorage.getItem(SHARE_NAME) ?? '')
  const setName = (value: string) => { setNameState(value); if (value.trim()) localStorage.setItem(SHARE_NAME, value.trim()); else localStorage.removeItem(SHARE_NAME) }
  const base = `/v1/shares/${encodeURIComponent(token)}`
  const reload = useCallback(() => api.get<ShareView>(base).then(async (loaded) => {
    setView(loaded)
    let all = loaded.transcript.segments as LiveSegment[]
    if (loaded.transcript.nextCursor) {
      const rest: Transcript = await loadTranscript(loaded.session.id, `${base}/transcript`).catch(() => ({ sessionId: '', segments: [], speakers: [] }))
      all = rest.segments.length ? rest.segments : all
    }
    setSegments(all)
  }, (error: unknown) => {
    setFailure(error instanceof ApiError && error.status === 404 ? t('share.gone') : (error as Error).message)
  }), [base, t])
  useEffect(() => { void reload() }, [reload])

  if (failure) return <section className="card narrow"><PageTitle title={t('share.title')}>{t('share.title')}</PageTitle><p role="alert">{failure}</p></section>
  if (!view) return <Loading />
  const speakers = Object.fromEntries(view.speakers.map((speaker) => [speaker.speakerId, speaker.label]))
  const canComment = view.permission === 'comment'
  const byId = new Map(segments.map((segment) => [segment.id, segment]))
  const segmentOf: SegmentSpeaker = (segmentId) => {
    const segment = byId.get(segmentId)
    return segment ? { speaker: segment.speakerId ? speakers[segment.speakerId] : undefined, text: segment.text } : undefined
  }
  return (
    <div className="session-page">
      <PageTitle title={view.session.title}>{view.session.title}</PageTitle>
      <p className="muted">{t(canComment ? 'share.canComment' : 'share.readOnly')} {t('share.expires', { date: dateTime(view.expiresAt) })}</p>
      <div className="columns">
        <section aria-labelledby="transcript-title" className="transcript-column">
          <h2 id="transcript-title">{t('session.transcript')}</h2>
          <TranscriptList segments={segments} speakers={speakers} searchable />
        </section>
        <section aria-labelledby="work-title" className="work-column">
          <h2 id="work-title">{t('session.work')}</h2>
          {canComment ? (
            <div className="share-name">
              <label htmlFor="share-name">{t('share.name')}</label>
              <input id="share-name" value={name} maxLength={80} autoComplete="name" aria-describedby="share-name-hint" onChange={(event) => setName(event.target.value)} />
              <p className="muted small" id="share-name-hint">{t('share.nameHint')}</p>
            </div>
          ) : null}
          {view.workObjects.filter((wo) => wo.proposal?.state !== 'rejected').map((wo) => (
            <SharedWorkObject key={wo.id} wo={wo} comments={view.comments.filter((comment) => comment.workObjectId === wo.id)}
              canComment={canComment} name={name} base={base} onCommented={() => void reload()} segmentOf={segmentOf} />
          ))}
        </section>
      </div>
    </div>
  )
}

function SharedWorkObject({ wo, comments, canComment, name, base, onCommented, segmentOf }: {
  wo: WorkObject; comments: ShareView['comments']; canComment: boolean; name: string; base: string; onCommented: () => void; segmentOf: SegmentSpeaker
}) {
  const { t, dateTime, day } = useI18n()
  const [body, setBody] = useState('')
  const { busy, error, run } = useAction()
  const headingId = `shared-${wo.id}`
  return (
    <article className="work-object" aria-labelledby={headingId}>
      <header><span className="badge">{t(`work.kind.${wo.kind}` as MessageKey)}</span><h3 id={headingId}>{wo.title}</h3></header>
      {wo.summary ? <p className="work-summary" data-testid="work-summary">{quotedSummary(wo.summary, wo.sourceSegmentIds, segmentOf)}</p> : null}
      {/* Who was heard taking it on and by when: what a reader outside the workspace came for. */}
      <p className="meta" data-testid="shared-meta">
        <span>{t('work.stage')}{t('common.colon')}{t(`work.stage.${wo.stage}` as MessageKey)}</span>
        {wo.proposal?.state === 'pending' ? <span>{t('work.takeover.proposed')}</span> : null}
        {wo.suggestedOwnerName ? <span>{t('work.suggestedOwner', { name: speakerName(wo.suggestedOwnerName) })}</span> : null}
        {wo.dueDate ? <span>{t('work.due', { date: day(wo.dueDate) })}</span> : null}
      </p>
      <ul className="comments">
        {comments.map((comment) => <li key={comment.id}><strong>{comment.authorName}</strong> <span className="muted">{dateTime(comment.createdAt)}</span><p>{comment.body}</p></li>)}
      </ul>
      {canComment ? (
        <form onSubmit={(event) => {
          event.preventDefault()
          void run(async () => {
            await api.post(`${base}/comments`, { workObjectId: wo.id, body: body.trim(), ...(name.trim() ? { authorName: name.trim() } : {}) })
            setBody('')
            onCommented()
          })
        }}>
          <label htmlFor={`comment-${wo.id}`}>{t('share.comment')}</label>
          <textarea id={`comment-${wo.id}`} value={body} required maxLength={4000} onChange={(event) => setBody(event.target.value)} />
          <button type="submit" disabled={busy || !body.trim()}>{t('work.send')}</button>
        </form>
      ) : null}
      <ErrorLine error={error} />
    </article>
  )
}
