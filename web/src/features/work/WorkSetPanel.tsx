// A session's work set: the takeover summary (a failure shown with its retry; once the work moved
// on, a refresh), rebuild when
// needsRebuild, proposals to accept or reject, the work objects, clarify items and relations.
import { useState } from 'react'
import { idempotencyKey, useAction } from '../../lib/api.ts'
import { speakerName, useI18n, type MessageKey } from '../../lib/i18n.ts'
import type { Clarification, Relation, WorkSetDetail } from '../../lib/types.ts'
import { ErrorLine, Loading } from '../../lib/ui.tsx'
import { useMembers, useWorkSet, work } from './api.ts'
import { WorkObjectCard } from './WorkObjectCard.tsx'
import { WorkObjectList } from './WorkObjectList.tsx'
import type { SegmentSpeaker } from './quote.ts'

export function WorkSetPanel({ sessionId, workSetId, me, canEdit, focusId, segmentOf }: { sessionId: string; workSetId: string; me: string; canEdit: boolean; focusId?: string; segmentOf?: SegmentSpeaker }) {
  const { t } = useI18n()
  const detail = useWorkSet(workSetId)
  const members = useMembers()
  const { busy, error, run } = useAction()
  if (!detail.data) return detail.error ? <ErrorLine error={detail.error.message} /> : <Loading />
  const set = detail.data
  const memberList = members.data?.members ?? []
  // The current review task; once it is decided the object gets a fresh open one, so an open task
  // shows the last decision instead.
  const reviewOf = (id: string) => {
    const current = set.reviewTasks.find((task) => task.id === id)
    if (current && current.state !== 'open') return current
    const decided = set.reviewTasks.filter((task) => task.workObjectId === current?.workObjectId && task.decidedAt)
      .sort((a, b) => (b.decidedAt ?? '').localeCompare(a.decidedAt ?? ''))[0]
    return decided ? { ...decided, id: current?.id ?? decided.id, state: decided.state } : current
  }
  const proposals = set.workObjects.filter((wo) => wo.proposal?.state === 'pending' && wo.proposal.kind === 'object')
  const objects = set.workObjects.filter((wo) => !proposals.includes(wo) && wo.proposal?.state !== 'rejected')
  const openClarifications = set.clarifications.filter((item) => item.status === 'open')
  const proposedRelations = set.relations.filter((relation) => relation.status === 'proposed')
  const titleOf = (id: string) => set.workObjects.find((wo) => wo.id === id)?.title ?? id

  return (
    <div className="workset">
      <section aria-labelledby="takeover-title" className="card">
        <h2 id="takeover-title">{t('work.takeover')}</h2>
        <Takeover set={set} />
        {canEdit && summaryOutdated(set) ? (
          <div>
            <p className="muted" data-testid="takeover-outdated">{t('work.takeover.outdated')}</p>
            <button type="button" disabled={busy} onClick={() => void run(() => work.patchWorkSet(sessionId, workSetId, { action: 'takeover.refresh', idempotencyKey: idempotencyKey() }))}>{t('work.takeover.refresh')}</button>
          </div>
        ) : null}
        {set.takeoverState === 'failed' && canEdit ? (
          <button type="button" disabled={busy} onClick={() => void run(() => work.patchWorkSet(sessionId, workSetId, { action: 'takeover.retry', idempotencyKey: idempotencyKey() }))}>{t('common.retry')}</button>
        ) : null}
        {set.needsRebuild ? (
          <div>
            <p className="warning">{t('work.needsRebuild')}</p>
            {canEdit ? <button type="button" disabled={busy} onClick={() => void run(() => work.rebuild(sessionId, workSetId))}>{t('work.rebuild')}</button> : null}
          </div>
        ) : null}
        <ErrorLine error={error} />
      </section>
      {proposals.length > 0 ? (
        <section aria-labelledby="proposals-title">
          <h2 id="proposals-title">{t('work.proposals')} ({proposals.length})</h2>
          <WorkObjectList objects={proposals} focusId={focusId} testId="proposals"
            render={(wo) => <WorkObjectCard key={wo.id} wo={wo} review={reviewOf(wo.reviewId)} members={memberList} me={me} canEdit={canEdit} focused={wo.id === focusId} segmentOf={segmentOf} />} />
        </section>
      ) : null}
      {openClarifications.length > 0 ? (
        <section aria-labelledby="clarify-title">
          <h2 id="clarify-title">{t('work.clarify')}</h2>
          {openClarifications.map((item) => <ClarifyItem key={item.id} item={item} sessionId={sessionId} canEdit={canEdit} />)}
        </section>
      ) : null}
      {proposedRelations.length > 0 ? (
        <section aria-labelledby="relations-title">
          <h2 id="relations-title">{t('work.relations')}</h2>
          <ul>{proposedRelations.map((relation) => <RelationItem key={relation.id} relation={relation} sessionId={sessionId} titleOf={titleOf} canEdit={canEdit} />)}</ul>
        </section>
      ) : null}
      <section aria-labelledby="objects-title">
        <h2 id="objects-title">{t('work.objects')} ({objects.length})</h2>
        {objects.length === 0 ? <p className="muted">{t('common.none')}</p> : null}
        <WorkObjectList objects={objects} focusId={focusId}
          render={(wo) => <WorkObjectCard key={wo.id} wo={wo} review={reviewOf(wo.reviewId)} members={memberList} me={me} canEdit={canEdit} focused={wo.id === focusId} segmentOf={segmentOf} />} />
      </section>
    </div>
  )
}

/**
 * The summary is pinned to the set as it was (docs/decisions.md, "Takeover summary"): it is out of
 * date once what it shows differs from the work now — an item rejected, accepted or gone, a title,
 * owner or due date changed, or work it does not list.
 */
function summaryOutdated(set: WorkSetDetail): boolean {
  const summary = set.takeoverState === 'ready' ? set.takeoverSummary : undefined
  if (!summary) return false
  const live = set.workObjects.filter((wo) => wo.proposal?.state !== 'rejected')
  const items = summary.blocks.flatMap((block) => block.items).filter((item) => item.workObjectId)
  const cited = new Set(items.map((item) => item.workObjectId))
  if (live.some((wo) => !cited.has(wo.id))) return true
  return items.some((item) => {
    const wo = live.find((candidate) => candidate.id === item.workObjectId)
    // Without an owner the summary names who was heard taking it on: a speaker named since ("Speaker 1" → "Alice") outdates it.
    const heard = !wo?.ownerId && (wo?.suggestedOwnerName ?? '') !== (item.ownerName ?? '')
    return !wo || heard || wo.title !== item.text || Boolean(item.proposed) !== (wo.proposal?.state === 'pending') || (wo.dueDate ?? '') !== (item.dueDate ?? '') || (wo.ownerId ?? '') !== (item.ownerId ?? '')
  })
}

type Summary = NonNullable<WorkSetDetail['takeoverSummary']>
type BlockType = Summary['blocks'][number]['type']

/**
 * The summary's headline in the reader's language, counted from its blocks as the server counts
 * them (work/takeover-blocks.ts); the server writes it in the meeting's language. A chat model's
 * headline (with its brief) is its own words and is shown as written.
 */
function headlineOf(summary: Summary, t: ReturnType<typeof useI18n>['t']): string {
  if (summary.brief) return summary.headline
  const count = (type: BlockType) => summary.blocks.find((block) => block.type === type)?.items.length ?? 0
  const unowned = summary.blocks.find((block) => block.type === 'actions')?.items.filter((item) => !item.ownerName).length ?? 0
  const parts = [
    t(count('actions') === 1 ? 'work.takeover.count.action' : 'work.takeover.count.actions', { n: count('actions') }) + (unowned > 0 ? t('work.takeover.count.unowned', { n: unowned }) : ''),
    count('decisions') > 0 ? t(count('decisions') === 1 ? 'work.takeover.count.decision' : 'work.takeover.count.decisions', { n: count('decisions') }) : '',
    count('open-questions') > 0 ? t(count('open-questions') === 1 ? 'work.takeover.count.question' : 'work.takeover.count.questions', { n: count('open-questions') }) : '',
    count('clarifications') > 0 ? t('work.takeover.count.clarify', { n: count('clarifications') }) : '',
  ].filter(Boolean)
  return parts.join(t('work.takeover.count.separator')) + t('work.takeover.count.end')
}

function Takeover({ set }: { set: WorkSetDetail }) {
  const { t, day } = useI18n()
  if (set.takeoverState === 'pending') return <p className="muted">{t('work.takeover.pending')}</p>
  if (set.takeoverState === 'empty') return <p className="muted">{t('work.takeover.empty')}</p>
  if (set.takeoverState === 'failed') return <p className="error" role="alert">{t('work.takeover.failed', { detail: set.takeoverFailure?.detail ?? '' })}</p>
  const summary = set.takeoverSummary
  if (!summary) return <p className="muted">{t('work.takeover.empty')}</p>
  return (
    <div>
      <p data-testid="takeover-headline"><strong>{headlineOf(summary, t)}</strong></p>
      {summary.brief && summary.brief.points.length > 0 ? (
        <ul data-testid="takeover-brief">{summary.brief.points.map((point, index) => <li key={index}>{point.text}</li>)}</ul>
      ) : null}
      {summary.blocks.map((block) => (
        <div key={block.type}>
          <h3>{t(`work.takeover.block.${block.type}` as MessageKey)}</h3>
          <ul>{block.items.map((item, index) => <li key={index}>{item.text}{item.ownerName ? ` — ${speakerName(item.ownerName)}` : ''}{item.dueDate ? ` (${day(item.dueDate)})` : ''}{item.proposed ? <span className="muted"> · {t('work.takeover.proposed')}</span> : null}</li>)}</ul>
        </div>
      ))}
    </div>
  )
}

function ClarifyItem({ item, sessionId, canEdit }: { item: Clarification; sessionId: string; canEdit: boolean }) {
  const { t } = useI18n()
  const [answer, setAnswer] = useState('')
  const { busy, error, run } = useAction()
  const resolve = (resolution: 'confirmed' | 'deferred' | 'dismissed') =>
    run(() => work.patchWorkSet(sessionId, item.workSetId, { action: 'clarify.resolve', clarifyId: item.id, resolution, answer }))
  return (
    <div className="card">
      <p>{item.question}</p>
      {canEdit ? (
        <form onSubmit={(event) => { event.preventDefault(); void resolve('confirmed') }}>
          <label htmlFor={`answer-${item.id}`}>{t('work.answer')}</label>
          <input id={`answer-${item.id}`} maxLength={2000} value={answer} onChange={(event) => setAnswer(event.target.value)} />
          <div className="row">
            <button type="submit" className="primary" disabled={busy || !answer.trim()}>{t('work.confirm')}</button>
            <button type="button" disabled={busy} onClick={() => void resolve('deferred')}>{t('work.defer')}</button>
            <button type="button" disabled={busy} onClick={() => void resolve('dismissed')}>{t('work.dismiss')}</button>
          </div>
        </form>
      ) : null}
      <ErrorLine error={error} />
    </div>
  )
}

function RelationItem({ relation, sessionId, titleOf, canEdit }: { relation: Relation; sessionId: string; titleOf: (id: string) => string; canEdit: boolean }) {
  const { t } = useI18n()
  const { busy, error, run } = useAction()
  const decide = (action: 'relation.confirm' | 'relation.reject') =>
    run(() => work.patchWorkSet(sessionId, relation.workSetId, { action, relationId: relation.id, idempotencyKey: idempotencyKey() }))
  return (
    <li>
      “{titleOf(relation.fromWorkObjectId)}” {relation.type} “{titleOf(relation.toWorkObjectId)}”
      {canEdit ? (
        <span className="row">
          <button type="button" disabled={busy} onClick={() => void decide('relation.confirm')}>{t('work.confirm')}</button>
          <button type="button" disabled={busy} onClick={() => void decide('relation.reject')}>{t('work.reject')}</button>
        </span>
      ) : null}
      <ErrorLine error={error} />
    </li>
  )
}
