// On a work object: its runner tasks with their status, "Send to my runner" when its next step is
// runner-a, and confirming a task someone else asked for (the owner) or cancelling one.
import { useAction } from '../../lib/api.ts'
import { useI18n, type MessageKey } from '../../lib/i18n.ts'
import type { WorkObject } from '../../lib/types.ts'
import { ErrorLine } from '../../lib/ui.tsx'
import { runners, useRunnerTasks } from './api.ts'

const OPEN = new Set(['awaiting-confirmation', 'queued', 'leased'])

export default function RunnerTaskPanel({ wo, me }: { wo: WorkObject; me?: string }) {
  const { t, dateTime } = useI18n()
  const tasks = useRunnerTasks(wo.id)
  const { busy, error, run } = useAction()
  const list = tasks.data?.tasks ?? []
  const hasOpen = list.some((task) => OPEN.has(task.status))
  if (wo.nextStep !== 'runner-a' && list.length === 0) return null
  return (
    <div className="runner-tasks" data-testid="runner-tasks">
      <h4>{t('runners.tasks')}</h4>
      {tasks.error ? <ErrorLine error={tasks.error.message} /> : null}
      <ul>
        {list.map((task) => (
          <li key={task.id}>
            <span className={`badge ${task.status}`}>{t(`runners.task.${task.status}` as MessageKey)}</span>{' '}
            <span className="muted">{dateTime(task.updatedAt)}</span>
            {task.progress ? <p>{task.progress.message}{task.progress.percent !== undefined ? ` (${task.progress.percent}%)` : ''}</p> : null}
            {task.result ? <p>{t(task.result.outcome === 'succeeded' ? 'runners.succeeded' : 'runners.failed')}{task.landedAs ? ` · ${t(task.landedAs === 'comment' ? 'runners.landedComment' : 'runners.landedProposal')}` : ''}</p> : null}
            <div className="row">
              {task.status === 'awaiting-confirmation' && me === task.ownerId
                ? <button type="button" className="primary" disabled={busy} onClick={() => void run(() => runners.confirm(task))}>{t('runners.confirm')}</button> : null}
              {OPEN.has(task.status) ? <button type="button" disabled={busy} onClick={() => void run(() => runners.cancel(task))}>{t('runners.cancel')}</button> : null}
            </div>
          </li>
        ))}
      </ul>
      {wo.nextStep === 'runner-a' && !hasOpen ? (
        <button type="button" disabled={busy} onClick={() => void run(() => runners.request({ workObjectId: wo.id, runnerKind: 'runner-a' }))}>{t('runners.send')}</button>
      ) : null}
      <ErrorLine error={error} />
    </div>
  )
}
