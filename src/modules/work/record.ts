// Every change to a work object goes through `recordChange`, in the transaction that makes it:
// the object's activity log gets its entries, the conversation's log gets the realtime event
// (channel `work`), the work set's revision is bumped (`workset.updated`), and the people
// concerned are notified — never the actor.
import type { AppDeps } from '../../platform/deps.ts'
import { newId, nowIso } from '../../platform/ids.ts'
import type { Executor } from '../../platform/realtime/types.ts'
import { enqueue } from '../../platform/jobs/index.ts'
import { afterBodies } from '../../platform/db/shared-transaction.ts'
import { notify } from '../notifications/index.ts'
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
  // What takes rows every change of the conversation waits for, last: in a shared transaction of
  // edits (edit-batch.ts) once for every edit of the batch, so that it holds them briefly.
  await afterBodies(trx, announceChanges, { deps, trx, change, at })
}

type Announced = { deps: AppDeps; trx: Executor; change: Change; at: string }

/**
 * Logs changes of one transaction: each change's event, then its set's revision bump and
 * `workset.updated` (one per change, with the revision it made), whoever derives from work, the
 * takeover and the people concerned. Rows in the usual order: the conversation's event counter,
 * the sets (in id order), the memory job, inbox counters. A single change makes the same events
 * in the same order as `announce`; several make their change events first, then their
 * `workset.updated` events (fewer round trips: one statement for each kind).
 */
async function announceChanges(items: Announced[]) {
  const { deps, trx } = items[0]!
  const byConversation = Map.groupBy(items, (item) => item.change.object.conversation_id)
  for (const [conversationId, changes] of byConversation) {
    await deps.events.appendMany(trx, conversationId, changes.map(({ change }) => ({ type: change.event, data: { workObject: presentWorkObject(change.object), ...change.data } })))
    const at = changes.at(-1)!.at
    const bySet = Map.groupBy(changes, (item) => item.change.object.work_set_id)
    const revisions = new Map<Announced, number>()
    for (const setId of [...bySet.keys()].sort()) {
      const ofSet = bySet.get(setId)!
      const bumped = await repo.bumpWorkSet(trx, setId, at, ofSet.length)
      ofSet.forEach((item, index) => revisions.set(item, bumped.revision - ofSet.length + 1 + index))
      // Whoever derives from work (project memory) hears of it in the same transaction.
      await deps.ports.workChanged?.(trx, { workspaceId: bumped.workspace_id, sessionId: bumped.session_id })
      // The meeting's takeover found no action; now there is one: derive it again (once, after commit).
      if (bumped.takeover_state === 'empty' && ofSet.some(({ change }) => change.object.kind === 'action')) {
        await enqueue(trx, TAKEOVER_JOB, { sessionId: bumped.session_id }, { dedupeKey: setId })
      }
    }
    await deps.events.appendMany(trx, conversationId, changes.map((item) => ({
      type: 'workset.updated', data: { workSetId: item.change.object.work_set_id, revision: revisions.get(item)! },
    })))
  }
  for (const { change } of items) await notifyConcerned(deps, trx, change)
}

async function notifyConcerned(deps: AppDeps, trx: Executor, change: Change) {
  const { object } = change
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
