// A session speaker named by a person ("Speaker 2" → "Dana Li"): the work of that session whose
// suggested owner was the speaker's old label (or its bare id, as extraction writes a speaker the
// session had no label for) now suggests the new name (the voice module calls
// this in the transaction that renames the speaker). Each change is recorded like any other.
import type { AppDeps } from '../../platform/deps.ts'
import type { Executor } from '../../platform/realtime/types.ts'
import { nextTimestamp, recordChange } from './record.ts'
import * as repo from './repo.ts'

export async function renameSuggestedOwner(deps: AppDeps, trx: Executor, input: { workspaceId: string; sessionId: string; from: string[]; to: string; actorId: string | null }) {
  const from = [...new Set(input.from)].filter((label) => label !== input.to)
  if (from.length === 0) return 0
  const rows = await trx.selectFrom('work_objects').select(['id', 'owner_hint']).where('workspace_id', '=', input.workspaceId)
    .where('session_id', '=', input.sessionId).where('owner_hint', 'in', from).orderBy('id').execute()
  for (const { id, owner_hint: old } of rows) {
    const current = (await repo.findObject(trx, input.workspaceId, id))!
    const updated = await repo.updateObject(trx, id, { owner_hint: input.to, updated_at: nextTimestamp(current.updated_at) })
    await recordChange(deps, trx, {
      object: updated, actorId: input.actorId, event: 'workobject.updated',
      activity: [{ verb: 'edited', field: 'suggestedOwnerName', oldValue: old, newValue: input.to }],
    })
  }
  return rows.length
}

/**
 * What the engine heard later about a pending AI proposal: a request proposed as soon as it was asked ("Can you send
 * the numbers?") learns its owner and date from the reply that follows ("Sure, I'll send them by Friday"), which a
 * later refine run finds under the same item. Only empty hints are filled (never what a person set, never once the
 * proposal was decided), and the turns that carry them join its sources. Recorded like any other change.
 */
export async function completeProposalHints(deps: AppDeps, trx: Executor, workObjectId: string, heard: { ownerHint?: string; ownerHintAccountId?: string; dueDate?: string; sourceSegmentIds: string[] }) {
  const current = await repo.lockObject(trx, deps.database.dialect, workObjectId)
  if (!current || current.proposal_state !== 'pending' || current.origin !== 'ai') return false
  const changes: { owner_hint?: string; owner_hint_account_id?: string | null; due_date?: string; source_segment_ids?: string } = {}
  const activity: { verb: 'edited'; field: string; oldValue: string | null; newValue: string }[] = []
  if (heard.ownerHint && !current.owner_hint && !current.owner_account_id) {
    changes.owner_hint = heard.ownerHint
    changes.owner_hint_account_id = heard.ownerHintAccountId ?? null
    activity.push({ verb: 'edited', field: 'suggestedOwnerName', oldValue: null, newValue: heard.ownerHint })
  }
  if (heard.dueDate && !current.due_date) {
    changes.due_date = heard.dueDate
    activity.push({ verb: 'edited', field: 'dueDate', oldValue: null, newValue: heard.dueDate })
  }
  if (activity.length === 0) return false
  const cited = JSON.parse(current.source_segment_ids) as string[]
  const added = heard.sourceSegmentIds.filter((id) => !cited.includes(id))
  if (added.length > 0) changes.source_segment_ids = JSON.stringify([...cited, ...added])
  const updated = await repo.updateObject(trx, current.id, { ...changes, updated_at: nextTimestamp(current.updated_at) })
  await recordChange(deps, trx, { object: updated, actorId: null, event: 'workobject.updated', activity })
  return true
}
