// Settling a clarify item (`clarify.resolve`): confirmed (with the answer), deferred (asked again
// later) or dismissed. Confirming who owns an action assigns it: `ownerId`, or an answer that
// names exactly one edit member (name or email; "me" / "我" is the person answering).
import type { AppDeps } from '../../platform/deps.ts'
import { forUpdate } from '../../platform/db/dialect.ts'
import { AppError, badRequest, notFound } from '../../platform/http/errors.ts'
import { nowIso } from '../../platform/ids.ts'
import type { Executor } from '../../platform/realtime/types.ts'
import { announce, presentClarification, type ClarificationRow } from './followups.ts'
import { nextTimestamp, recordChange } from './record.ts'
import * as repo from './repo.ts'
import { requireEditMember, type Caller } from './service.ts'
import { listMembers } from '../workspace/index.ts'

type ResolveInput = { clarifyId: string; resolution: 'confirmed' | 'deferred' | 'dismissed'; answer: string; ownerId?: string }

const SELF = new Set(['me', 'i', 'myself', 'i will', "i'll", '我', '我来', '我自己'])
const FINAL = new Set(['confirmed', 'dismissed', 'obsolete'])

/** The edit member the answer names, if exactly one. */
async function memberNamed(db: Executor, caller: Caller, answer: string): Promise<string | undefined> {
  const wanted = answer.trim().toLowerCase().replace(/[.!。！]+$/u, '')
  if (SELF.has(wanted)) return caller.membership.contentPermission === 'edit' ? caller.actor.accountId : undefined
  const rows = (await listMembers(db, caller.membership.workspaceId)).filter((row) => row.content_permission === 'edit')
  const matches = rows.filter((row) => row.email.toLowerCase() === wanted || (row.name ?? '').trim().toLowerCase() === wanted)
  return matches.length === 1 ? matches[0]!.account_id : undefined
}

export async function resolveClarification(deps: AppDeps, trx: Executor, caller: Caller, set: repo.WorkSetRow, input: ResolveInput): Promise<ClarificationRow> {
  const query = trx.selectFrom('work_clarifications').selectAll().where('id', '=', input.clarifyId).where('work_set_id', '=', set.id)
  const current = await forUpdate(deps.database.dialect, query).executeTakeFirst() ?? notFound('clarify item', input.clarifyId)
  const answer = input.answer.trim()
  if (input.resolution === 'confirmed' && !answer) throw badRequest('answer', 'required', 'answer is required to confirm a clarify item')
  if (input.ownerId !== undefined && current.kind !== 'missing-owner') throw badRequest('ownerId', 'not_applicable', 'ownerId only answers a missing-owner clarify item')
  if (FINAL.has(current.status)) {
    if (current.status === input.resolution && (current.answer ?? '') === answer) return current
    throw new AppError('transition_not_allowed', `This clarify item is already ${current.status}.`, { extra: { currentStatus: current.status } })
  }
  let owner: string | undefined
  if (input.resolution === 'confirmed' && current.kind === 'missing-owner') {
    if (input.ownerId !== undefined) await requireEditMember(trx, caller.membership.workspaceId, input.ownerId, 'ownerId')
    owner = input.ownerId ?? await memberNamed(trx, caller, answer)
  }
  const now = nowIso()
  const updated = (await trx.updateTable('work_clarifications')
    .set({ status: input.resolution, answer: answer || null, resolved_by: caller.actor.accountId, resolved_at: now, updated_at: now })
    .where('id', '=', current.id).returningAll().executeTakeFirst())!
  if (owner) await assignOwner(deps, trx, caller, JSON.parse(current.work_object_ids) as string[], owner)
  await announce(deps, trx, set, 'workset.clarification', { action: 'resolved', clarification: presentClarification(updated) })
  return updated
}

/** Gives the objects that still have nobody responsible to `owner`, as an assignment by the caller. */
async function assignOwner(deps: AppDeps, trx: Executor, caller: Caller, workObjectIds: string[], owner: string) {
  for (const id of workObjectIds) {
    const object = await repo.lockObject(trx, deps.database.dialect, id, caller.membership.workspaceId)
    if (!object || object.owner_account_id !== null || object.proposal_state === 'rejected') continue
    const updated = await repo.updateObject(trx, object.id, { owner_account_id: owner, updated_at: nextTimestamp(object.updated_at) })
    await recordChange(deps, trx, {
      object: updated, actorId: caller.actor.accountId, event: 'workobject.assigned', data: { action: 'assign' },
      activity: [{ verb: 'assign', field: 'owner', oldValue: null, newValue: owner, note: 'Answered a clarify item.' }],
      notify: [{ accountId: owner, kind: 'workobject.assigned' }],
    })
  }
}
