// On a work object: the recommended external actions (drafted again on request), preparing one
// into a frozen payload, approving EXACTLY that payload (shown with its hash), executing it, and
// the execution's status and receipt, and what executed actions already made for the object (its
// externalRefs, the receipts written onto it). Nothing leaves Confer before "Send".
import { useEffect, useRef, useState } from 'react'
import { useAction } from '../../lib/api.ts'
import { useI18n, type MessageKey } from '../../lib/i18n.ts'
import type { ActionRecommendation, PreparedAction, WorkObject } from '../../lib/types.ts'
import { ErrorLine, Link } from '../../lib/ui.tsx'
import { useWorkSet } from '../work/api.ts'
import { actionName, integrations, useExecution } from './api.ts'
import { MailOutboxNote } from './MailNote.tsx'

/** The states an execution's history records (integrations/run.ts); another is shown as sent. */
const EXECUTION_STATES = new Set(['queued', 'running', 'retrying', 'succeeded', 'failed'])

export default function ActionsPanel({ wo }: { wo: WorkObject }) {
  const { t } = useI18n()
  const [recommendations, setRecommendations] = useState<ActionRecommendation[]>()
  const { busy, error, run } = useAction()
  const refresh = () => void run(async () => {
    const list = await integrations.refreshRecommendations(wo.id, { expectedRevisionHash: wo.revisionHash })
    setRecommendations(list.recommendations)
  })
  return (
    <div className="external-actions" data-testid="external-actions">
      <h4>{t('actions.title')}</h4>
      <button type="button" disabled={busy} onClick={refresh}>{recommendations ? t('actions.refresh') : t('actions.show')}</button>
      <ErrorLine error={error} />
      {wo.externalRefs && wo.externalRefs.length > 0 ? (
        <>
          <p id={`sent-${wo.id}`}>{t('actions.sent')}</p>
          <ul aria-labelledby={`sent-${wo.id}`} data-testid="external-refs">
            {wo.externalRefs.map((ref) => (
              <li key={ref.executionId}>
                <span className="badge">{ref.provider}</span>{' '}
                {ref.url ? <a href={ref.url} target="_blank" rel="noreferrer">{ref.externalId}</a> : <code>{ref.externalId}</code>}
                {ref.summary ? <span className="muted"> — {ref.summary}</span> : null}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {recommendations && recommendations.length === 0 ? (
        <p className="muted" data-testid="actions-none">{t('actions.none')} {t('actions.noneWhy')} <Link href="/integrations">{t('actions.connect')}</Link></p>
      ) : null}
      <ul>
        {(recommendations ?? []).map((recommendation) => <Recommendation key={recommendation.id} recommendation={recommendation} dueDate={wo.dueDate} workSetId={wo.workSetId} />)}
      </ul>
    </div>
  )
}

function Recommendation({ recommendation, dueDate, workSetId }: { recommendation: ActionRecommendation; dueDate?: string; workSetId: string }) {
  const { t, day } = useI18n()
  const [prepared, setPrepared] = useState<PreparedAction>()
  const [token, setToken] = useState<string>()
  const [executionId, setExecutionId] = useState<string>()
  // What was already done with it, from the work set's actions (the session page has them loaded): after a
  // reload the panel said only "prepared", the payload, its approval and the execution's progress gone.
  const workSet = useWorkSet(workSetId)
  const earlier = (workSet.data?.actions as unknown as PreparedAction[] | undefined)
    ?.filter((action) => action.recommendationId === recommendation.id && action.state !== 'recommended' && action.state !== 'superseded')
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt))[0]
  const adopted = useRef(false)
  useEffect(() => {
    if (!earlier || prepared || adopted.current) return
    adopted.current = true
    setPrepared(earlier)
    if (earlier.receipt?.executionId) setExecutionId(earlier.receipt.executionId)
  }, [earlier, prepared])
  const { busy, error, run } = useAction()
  const payloadId = `payload-${recommendation.id}`
  // An email names its recipients before it is prepared: drafted from the people the item names.
  const isEmail = recommendation.actionId === 'email.send'
  const drafted = Array.isArray(recommendation.input.to) ? (recommendation.input.to as string[]).join(', ') : ''
  const [recipients, setRecipients] = useState(drafted)
  const recipientsId = `recipients-${recommendation.id}`
  const prepare = () => void run(async () => {
    const to = recipients.split(/[,;\s]+/).map((address) => address.trim()).filter(Boolean)
    setPrepared(await integrations.prepare(recommendation, isEmail ? { input: { to } } : {}))
  })
  return (
    <li className="card">
      {/* The card is the work object's: the action's name says what it is (the stored title prefixes
          the object's title with the catalog's English action title). */}
      <span className="badge">{actionName(recommendation.actionId)}</span>{' '}
      <span className="muted">{t(`actions.state.${prepared && recommendation.state === 'open' ? 'prepared' : recommendation.state}` as MessageKey)}</span>
      <p className="muted" data-testid="recommendation-reason">{recommendation.reasonCode
        // A decision goes to Slack's channel or to the webhook's receiver: the webhook has no channel.
        ? t((recommendation.reasonCode === 'decision-announcement' && recommendation.actionId === 'webhook.send'
          ? 'actions.reason.decision-webhook' : `actions.reason.${recommendation.reasonCode}`) as MessageKey, { date: dueDate ? day(dueDate) : '' })
        : recommendation.reason}</p>
      {!prepared && recommendation.state === 'open' ? (
        <form onSubmit={(event) => { event.preventDefault(); prepare() }}>
          {isEmail ? (
            <>
              <label htmlFor={recipientsId}>{t('actions.recipients')}</label>
              <input id={recipientsId} type="email" multiple required value={recipients} aria-describedby={`${recipientsId}-hint`}
                onChange={(event) => setRecipients(event.target.value)} />
              <p className="muted small" id={`${recipientsId}-hint`}>{t('actions.recipientsHint')}</p>
              <MailOutboxNote />
            </>
          ) : null}
          <button type="submit" disabled={busy}>{t('actions.prepare')}</button>
        </form>
      ) : null}
      {prepared ? (
        <div className="prepared">
          <p id={`${payloadId}-label`}>{t('actions.payloadIntro')}</p>
          <pre id={payloadId} tabIndex={0} aria-labelledby={`${payloadId}-label`} data-testid="prepared-payload"><code>{JSON.stringify(prepared.payload, null, 2)}</code></pre>
          <p className="small">{t('actions.hash')} <code data-testid="payload-hash">{prepared.payloadHash}</code></p>
          {!token && !executionId ? (
            <button type="button" className="primary" aria-describedby={payloadId} disabled={busy}
              onClick={() => void run(async () => { const approval = await integrations.approve(prepared); setPrepared(approval.action); setToken(approval.approvalToken) })}>
              {t('actions.approve')}
            </button>
          ) : null}
          {token && !executionId ? (
            <>
              <p>{t('actions.approved')}</p>
              <button type="button" className="primary" disabled={busy}
                onClick={() => void run(async () => { const result = await integrations.execute(prepared, token); setPrepared(result.action); setToken(undefined); setExecutionId(result.receipt.executionId) })}>
                {t('actions.execute')}
              </button>
            </>
          ) : null}
        </div>
      ) : null}
      {/* A failed sending is prepared again (the server takes a recommendation whose every action failed). */}
      {executionId ? <ExecutionStatus id={executionId} onAgain={busy ? undefined : () => { adopted.current = true; setExecutionId(undefined); setToken(undefined); setPrepared(undefined); prepare() }} /> : null}
      <ErrorLine error={error} />
    </li>
  )
}

function ExecutionStatus({ id, onAgain }: { id: string; onAgain?: () => void }) {
  const { t, dateTime } = useI18n()
  const execution = useExecution(id)
  const data = execution.data
  const finished = data?.state === 'succeeded' || data?.state === 'failed'
  const { reload } = execution
  // The receipt arrives as the durable job runs: ask again every 2 s until it has finished.
  useEffect(() => {
    if (finished) return
    const timer = window.setInterval(reload, 2000)
    return () => window.clearInterval(timer)
  }, [finished, reload])
  return (
    <div role="status" data-testid="execution">
      {execution.error ? <ErrorLine error={execution.error.message} /> : null}
      {data ? (
        <>
          <p>{t('actions.execution', { state: t(`actions.exec.${data.state}` as MessageKey) })}</p>
          {data.receipt?.url ? <p><a href={data.receipt.url} target="_blank" rel="noreferrer">{data.receipt.summary ?? data.receipt.url}</a></p> : data.receipt?.summary ? <p>{data.receipt.summary}</p> : null}
          {data.error ?? data.receipt?.error ? <p className="error">{data.error ?? data.receipt?.error}</p> : null}
          {data.state === 'failed' ? <button type="button" disabled={!onAgain} onClick={onAgain}>{t('actions.prepareAgain')}</button> : null}
          <ol className="small">
            {data.history.map((entry, index) => <li key={index}>{dateTime(entry.at)} · {EXECUTION_STATES.has(entry.state) ? t(`actions.exec.${entry.state}` as MessageKey) : entry.state}{historyDetail(entry) ? ` — ${historyDetail(entry)}` : ''}</li>)}
          </ol>
        </>
      ) : null}
    </div>
  )
}

/**
 * What a history entry adds, in words: a success's detail is the receipt's ids as JSON
 * ({"externalId":"act_…"}, integrations/run.ts), shown above as the receipt, so it is left out; a
 * failure's or an attempt's detail is a sentence and stays.
 */
function historyDetail(entry: { state: string; detail?: string }): string | undefined {
  if (!entry.detail) return undefined
  if (entry.state === 'succeeded' && entry.detail.startsWith('{')) return undefined
  return entry.detail
}
