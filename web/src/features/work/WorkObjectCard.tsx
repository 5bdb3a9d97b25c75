// One work object: its proposal (accept / reject), stage moves, progress, owner, and on demand its
// comments, revisions, edits (title, summary, due date, next step) and review (designate, request, decide).
import { lazy, Suspense, useState } from 'react'
import { useAction } from '../../lib/api.ts'
import { speakerName, useI18n, type MessageKey } from '../../lib/i18n.ts'
import type { ResponsibilityState, ReviewTask, WorkObject, WorkspaceMember } from '../../lib/types.ts'
import { ErrorLine, Loading } from '../../lib/ui.tsx'
import { NEXT_STEPS, STAGES, useComments, useRevisions, work, type NextStep } from './api.ts'
import { quotedSummary, type SegmentSpeaker } from './quote.ts'

// The runner and external-action panels load with the first opened details, not with the board.
const RunnerTaskPanel = lazy(() => import('../runners/RunnerTaskPanel.tsx'))
const ActionsPanel = lazy(() => import('../integrations/ActionsPanel.tsx'))

export function WorkObjectCard({ wo, review, members, me, canEdit, focused, segmentOf }: {
  wo: WorkObject; review?: ReviewTask; members: WorkspaceMember[]; me: string; canEdit: boolean
  /** the object a link (a notification, a source) was opened for: outlined */
  focused?: boolean
  /** the meeting's segments as the page shows them: a quote in the summary names its speaker as they are called now */
  segmentOf?: SegmentSpeaker
}) {
  const { t, day } = useI18n()
  const { busy, error, run } = useAction()
  const [open, setOpen] = useState(false)
  const nameOf = (id?: string) => (id ? members.find((member) => member.accountId === id)?.name || members.find((member) => member.accountId === id)?.email || id : t('work.noOwner'))
  const pending = wo.proposal?.state === 'pending'
  const stageIndex = STAGES.indexOf(wo.stage)
  const next = STAGES[stageIndex + 1]
  const previous = stageIndex > 0 ? STAGES[stageIndex - 1] : undefined
  const headingId = `wo-${wo.id}-title`
  const reviewState = review?.state ?? 'open'
  const isReviewer = review?.reviewerId === me
  // Entering `accepted` needs an approved review of the current revision (the server refuses it
  // otherwise): the move is offered only then, and until then the card says what it waits for.
  const approved = review?.state === 'approved' && review.revisionId === wo.revisionId
  const mayMoveNext = next !== undefined && (next !== 'accepted' || approved)
  // Reviewers are the other members who may edit; in a workspace where there is nobody else, the
  // owner reviews their own work (else nothing there could ever be accepted).
  const editors = members.filter((member) => member.contentPermission === 'edit')
  const others = editors.filter((member) => member.accountId !== wo.ownerId)
  const reviewers = others.length > 0 ? others : editors

  return (
    <article className={`work-object kind-${wo.kind}${focused ? ' highlighted' : ''}`} aria-labelledby={headingId} data-testid="work-object" data-work-object-id={wo.id} data-stage={wo.stage}>
      <header>
        <span className="badge">{t(`work.kind.${wo.kind}` as MessageKey)}</span>
        <h3 id={headingId}>{wo.title}</h3>
      </header>
      {wo.summary ? <p className="work-summary" data-testid="work-summary">{quotedSummary(wo.summary, wo.sourceSegmentIds, segmentOf)}</p> : null}
      <p className="meta">
        <span>{t('work.stage')}{t('common.colon')}<strong data-testid="stage">{t(`work.stage.${wo.stage}` as MessageKey)}</strong></span>
        <span>{t('work.owner')}{t('common.colon')}{nameOf(wo.ownerId)}</span>
        {wo.suggestedOwnerName && !wo.ownerId ? <span>{t('work.suggestedOwner', { name: speakerName(wo.suggestedOwnerName) })}</span> : null}
        {wo.dueDate ? <span>{t('work.due', { date: day(wo.dueDate) })}</span> : null}
        {wo.nextStep ? <span data-testid="next-step">{t('work.nextStepShown', { step: t(`work.nextStep.${wo.nextStep}` as MessageKey) })}</span> : null}
        <span>{t('work.review')}{t('common.colon')}{t(`work.review.state.${reviewState}` as MessageKey)}{review?.reviewerId ? t('common.inParentheses', { text: nameOf(review.reviewerId) }) : ''}</span>
      </p>
      {canEdit && pending && wo.proposal ? (
        <div className="row">
          <button type="button" className="primary" disabled={busy} aria-describedby={headingId}
            onClick={() => void run(() => work.decideProposal(wo, { decision: 'accept', expectedRevisionId: wo.proposal!.revisionId }))}>{t('work.accept')}</button>
          <button type="button" disabled={busy} aria-describedby={headingId}
            onClick={() => void run(() => work.decideProposal(wo, { decision: 'reject', expectedRevisionId: wo.proposal!.revisionId }))}>{t('work.reject')}</button>
        </div>
      ) : null}
      {canEdit && !pending ? (
        <div className="row">
          {previous ? <button type="button" disabled={busy} aria-describedby={headingId}
            onClick={() => void run(() => work.moveStage(wo, { fromStage: wo.stage, toStage: previous }))}>{t('work.moveTo', { stage: t(`work.stage.${previous}` as MessageKey) })}</button> : null}
          {next && mayMoveNext ? <button type="button" className="primary" disabled={busy} aria-describedby={headingId}
            onClick={() => void run(() => work.moveStage(wo, { fromStage: wo.stage, toStage: next }))}>{t('work.moveTo', { stage: t(`work.stage.${next}` as MessageKey) })}</button> : null}
          <label className="inline">
            {t('work.responsibility')}{' '}
            <select value={wo.responsibility.state} disabled={busy} onChange={(event) => {
              const state = event.target.value as ResponsibilityState
              const blockedReason = state === 'blocked' ? window.prompt(t('work.blockedReason')) ?? '' : undefined
              if (state === 'blocked' && !blockedReason) return
              void run(() => work.setResponsibility(wo, { expectedResponsibilityUpdatedAt: wo.responsibility.updatedAt, state, ...(blockedReason ? { blockedReason } : {}) }))
            }}>
              {(['todo', 'in-progress', 'blocked', 'done'] as const).map((state) => <option key={state} value={state}>{t(`work.resp.${state}` as MessageKey)}</option>)}
            </select>
          </label>
          {/* The member the meeting heard taking it on is one assignment away. */}
          {!wo.ownerId && wo.suggestedOwnerId && wo.suggestedOwnerId !== me && members.some((member) => member.accountId === wo.suggestedOwnerId) ? (
            <button type="button" className="primary" disabled={busy} data-testid="assign-heard"
              onClick={() => void run(() => work.assign(wo, { action: 'assign', userId: wo.suggestedOwnerId! }))}>{t('work.assignHeard', { name: nameOf(wo.suggestedOwnerId) })}</button>
          ) : null}
          {wo.ownerId === me
            ? <button type="button" disabled={busy} onClick={() => void run(() => work.assign(wo, { action: 'release' }))}>{t('work.release')}</button>
            : <button type="button" disabled={busy} onClick={() => void run(() => work.assign(wo, { action: 'claim' }))}>{t('work.claim')}</button>}
          <label className="inline">
            {t('work.assign')}{' '}
            <select value="" disabled={busy} onChange={(event) => { if (event.target.value) void run(() => work.assign(wo, { action: 'assign', userId: event.target.value })) }}>
              <option value="">—</option>
              {members.map((member) => <option key={member.accountId} value={member.accountId}>{member.name || member.email}</option>)}
            </select>
          </label>
        </div>
      ) : null}
      {canEdit && !pending && next === 'accepted' && !approved ? (
        <p className="muted" data-testid="accept-needs-review">
          {reviewState === 'requested' && review?.reviewerId
            ? (review.reviewerId === me ? t('work.acceptAwaitsYou') : t('work.acceptAwaitsReview', { name: nameOf(review.reviewerId) }))
            : t('work.acceptNeedsReview')}
        </p>
      ) : null}
      {wo.responsibility.state === 'blocked' && wo.responsibility.blockedReason ? <p className="warning">{wo.responsibility.blockedReason}</p> : null}
      {!pending ? (
        <div className="row review">
          {canEdit && reviewState !== 'requested' ? (
            <>
              <label className="inline">
                {t('work.designate')}{' '}
                <select value={review?.reviewerId ?? ''} disabled={busy} onChange={(event) => { if (event.target.value) void run(() => work.designateReviewer(wo, event.target.value)) }}>
                  <option value="">—</option>
                  {reviewers.map((member) => <option key={member.accountId} value={member.accountId}>{member.name || member.email}</option>)}
                </select>
              </label>
              {/* Disabled until someone is designated: said beside it, not left to guess. */}
              <button type="button" disabled={busy || !review?.reviewerId} aria-describedby={review?.reviewerId ? undefined : `${headingId}-no-reviewer`}
                onClick={() => void run(() => work.requestReview(wo))}>{t('work.requestReview')}</button>
              {review?.reviewerId ? null : <span className="muted" id={`${headingId}-no-reviewer`} data-testid="review-needs-reviewer">{t('work.requestReviewNeedsReviewer')}</span>}
            </>
          ) : null}
          {isReviewer && reviewState === 'requested' ? (
            <>
              <button type="button" className="primary" disabled={busy} onClick={() => void run(() => work.decideReview(wo, { decision: 'approved' }))}>{t('work.approve')}</button>
              <button type="button" disabled={busy} onClick={() => {
                const note = window.prompt(t('work.reviewNote')) ?? undefined
                void run(() => work.decideReview(wo, { decision: 'changes-requested', ...(note ? { note } : {}) }))
              }}>{t('work.requestChanges')}</button>
            </>
          ) : null}
        </div>
      ) : null}
      <ErrorLine error={error} />
      <details open={open} onToggle={(event) => setOpen((event.target as HTMLDetailsElement).open)}>
        <summary>{t('work.details')}</summary>
        {open ? <WorkObjectDetails wo={wo} canEdit={canEdit} pending={pending} me={me} /> : null}
      </details>
    </article>
  )
}

function WorkObjectDetails({ wo, canEdit, pending, me }: { wo: WorkObject; canEdit: boolean; pending: boolean; me: string }) {
  const { t, dateTime } = useI18n()
  const comments = useComments(wo.id)
  const revisions = useRevisions(wo.id)
  const [body, setBody] = useState('')
  const [editing, setEditing] = useState(false)
  const [title, setTitle] = useState(wo.title)
  const [summary, setSummary] = useState(wo.summary ?? '')
  const [dueDate, setDueDate] = useState(wo.dueDate ?? '')
  const [nextStep, setNextStep] = useState<NextStep | ''>((wo.nextStep as NextStep | undefined) ?? '')
  const { busy, error, run } = useAction()
  return (
    <div className="details">
      {/* A proposal is accepted (or rejected) before anything else: the server refuses its edit
          (proposal_pending) and recommends it no action, so neither is offered until then. */}
      {canEdit && pending ? <p className="muted" data-testid="proposal-first">{t('work.proposalFirst')}</p> : null}
      {canEdit && !pending && !editing ? <button type="button" onClick={() => setEditing(true)}>{t('work.edit')}</button> : null}
      {editing ? (
        <form onSubmit={(event) => { event.preventDefault(); void run(async () => { await work.edit(wo, title, summary, dueDate, nextStep); setEditing(false) }) }}>
          <label htmlFor={`title-${wo.id}`}>{t('work.title')}</label>
          <input id={`title-${wo.id}`} value={title} required maxLength={500} onChange={(event) => setTitle(event.target.value)} />
          <label htmlFor={`summary-${wo.id}`}>{t('work.summary')}</label>
          <textarea id={`summary-${wo.id}`} maxLength={20_000} value={summary} onChange={(event) => setSummary(event.target.value)} />
          <label htmlFor={`due-${wo.id}`}>{t('work.dueDate')}</label>
          <input id={`due-${wo.id}`} type="date" value={dueDate} onChange={(event) => setDueDate(event.target.value)} />
          <label htmlFor={`next-${wo.id}`}>{t('work.nextStep')}</label>
          <select id={`next-${wo.id}`} value={nextStep} onChange={(event) => setNextStep(event.target.value as NextStep | '')}>
            <option value="">{t('work.nextStep.none')}</option>
            {NEXT_STEPS.map((step) => <option key={step} value={step}>{t(`work.nextStep.${step}` as MessageKey)}</option>)}
          </select>
          <div className="row">
            <button type="submit" className="primary" disabled={busy}>{t('common.save')}</button>
            <button type="button" onClick={() => setEditing(false)}>{t('common.cancel')}</button>
          </div>
        </form>
      ) : null}
      <h4>{t('work.comments')}</h4>
      {comments.data ? (
        <ul className="comments">
          {comments.data.map((comment) => <li key={comment.id}><strong>{comment.authorName}</strong> <span className="muted">{dateTime(comment.createdAt)}</span><p>{comment.body}</p></li>)}
        </ul>
      ) : <Loading />}
      <form onSubmit={(event) => { event.preventDefault(); void run(async () => { await work.comment(wo, body.trim()); setBody('') }) }}>
        <label htmlFor={`comment-${wo.id}`}>{t('work.addComment')}</label>
        <textarea id={`comment-${wo.id}`} value={body} required maxLength={10_000} onChange={(event) => setBody(event.target.value)} />
        <button type="submit" disabled={busy || !body.trim()}>{t('work.send')}</button>
      </form>
      <ErrorLine error={error} />
      <Suspense fallback={null}>
        <RunnerTaskPanel wo={wo} me={me} />
        {canEdit && !pending ? <ActionsPanel wo={wo} /> : null}
      </Suspense>
      <h4>{t('work.revisions')}</h4>
      <ol className="revisions">
        {(revisions.data?.revisions ?? []).map((revision) => (
          <li key={revision.id}>{t('work.revision', { n: revision.number })} · {t(`work.author.${revision.authorKind}` as MessageKey)} · {dateTime(revision.createdAt)} — {revision.content.title}</li>
        ))}
      </ol>
    </div>
  )
}
