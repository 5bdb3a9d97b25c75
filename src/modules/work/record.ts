// Every change to a work object goes through `recordChange`, in the transaction that makes it:
// the object's activity log gets its entries, the conversation's log gets the realtime event
// (channel `work`), the work set's revision is bumped (`workset.updated`), and the people
// concerned are notified — never the actor.
import type { AppDeps } from '../../platform/deps.ts'
import { newId, nowIso } from '../../platform/ids.ts'
import type { Executor } from '../../platform/realtime/types.ts'
import { enqueue } from '../../platform/jobs/index.ts'
import { notify } from '../notifications/index.ts'
import { announce } from './followups.ts'
import { TAKEOVER_JOB } from './jobs.ts'
import { presentWorkObject } from './presenter.ts'
import * as repo from './repo.ts'

export type ActivityEntry = { verb: string; field?: string; oldValue?: string | null; newValue?: string | null; note?: string | null }
export type Recipient = { accountId: string | null | undefined; kind: string; data?: Record<string, unknown> }

export type Change = {
  object: repo.WorkObjectRow
  /** null when the extraction engine acted */
  actorId: string | null
  /** realtime event type (`workobject.*`); its data is {workObject, ...data} */
  event: string
  data?: Record<string, unknown>
  activity: ActivityEntry[]
  notify?: Recipient[]
}

export async function recordChange(deps: AppDeps, trx: Executor, change: Change) {
  const { object } = change
  const at = nowIso()
  await repo.insertActivity(trx, change.activity.map((entry) => ({
    id: newId('wac'), work_object_id: object.id, verb: entry.verb, field: entry.field ?? null,
    old_value: entry.oldValue ?? null, new_value: entry.newValue ?? null, note: entry.note ?? null,
    actor_account_id: change.actorId, at,
  })))
  // Whoever derives from this object (recommended external actions) hears of it in the same
  // transaction. Before announce: its lookup and job (keyed by this change) lock nothing shared, and
  // announce takes the rows every change of the conversation waits for (its event counter, the set).
  await deps.ports.workObjectChanged?.(trx, { workspaceId: object.workspace_id, workSetId: object.work_set_id, workObjectId: object.id, updatedAt: object.updated_at })
  const { takeover_state: takeover, session_id: sessionId } = await announce(deps, trx, { id: object.work_set_id, conversation_id: object.conversation_id },
    change.event, { workObject: presentWorkObject(object), ...change.data }, at)
  // The meeting's takeover found no action; now there is one: derive it again (once, after commit).
  if (takeover === 'empty' && object.kind === 'action') await enqueue(trx, TAKEOVER_JOB, { sessionId }, { dedupeKey: object.work_set_id })
  const seen = new Set<string>()
  for (const recipient of change.notify ?? []) {
    const accountId = recipient.accountId
    if (!accountId || seen.has(`${accountId}:${recipient.kind}`)) continue
    seen.add(`${accountId}:${recipient.kind}`)
    await notify(deps.events, trx, {
      workspaceId: object.workspace_id, recipientAccountId: accountId, kind: recipient.kind,
      ...(change.actorId ? { actorAccountId: change.actorId } : {}),
      subjectType: 'workobject', subjectId: object.id,
      data: { workObjectId: object.id, title: object.title, sessionId: object.session_id, ...recipient.data },
    })
  }
}

/** Updated timestamps strictly increase, so an `expected…UpdatedAt` guard always sees a change. */
export function nextTimestamp(previous: string) {
  return new Date(Math.max(Date.now(), new Date(previous).getTime() + 1)).toISOString()
}

/** Whether a client's ISO timestamp names the same instant as the stored one. */
export const sameInstant = (given: string, stored: string) => new Date(given).getTime() === new Date(stored).getTime()
