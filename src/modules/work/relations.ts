// Deciding a relation the extraction proposed (`relation.confirm` / `relation.reject`). Confirming
// has the relation's consequence: a duplicate that is still an untouched proposal is withdrawn; a
// later decision superseding an earlier one settles the contradiction raised about the two.
import type { AppDeps } from '../../platform/deps.ts'
import { forUpdate } from '../../platform/db/dialect.ts'
import { AppError, notFound } from '../../platform/http/errors.ts'
import { nowIso } from '../../platform/ids.ts'
import type { Executor } from '../../platform/realtime/types.ts'
import { announce, presentClarification, presentRelation, type RelationRow } from './followups.ts'
import { withdrawProposal } from './proposals.ts'
import * as repo from './repo.ts'
import type { Caller } from './service.ts'

export async function decideRelation(deps: AppDeps, trx: Executor, caller: Caller, set: repo.WorkSetRow, input: {
  action: 'relation.confirm' | 'relation.reject'; relationId: string
}): Promise<RelationRow> {
  const query = trx.selectFrom('work_relations').selectAll().where('id', '=', input.relationId).where('work_set_id', '=', set.id)
  const current = await forUpdate(deps.database.dialect, query).executeTakeFirst() ?? notFound('relation', input.relationId)
  const status = input.action === 'relation.confirm' ? 'confirmed' as const : 'rejected' as const
  if (current.status !== 'proposed') {
    if (current.status === status) return current
    throw new AppError('transition_not_allowed', `This relation was already ${current.status}.`, { extra: { currentStatus: current.status } })
  }
  const now = nowIso()
  const updated = (await trx.updateTable('work_relations').set({ status, decided_by: caller.actor.accountId, decided_at: now, updated_at: now })
    .where('id', '=', current.id).returningAll().executeTakeFirst())!
  if (status === 'confirmed') await applyRelation(deps, trx, caller, set, updated)
  await announce(deps, trx, set, 'workset.relation', { action: status, relation: presentRelation(updated) })
  return updated
}

async function applyRelation(deps: AppDeps, trx: Executor, caller: Caller, set: repo.WorkSetRow, relation: RelationRow) {
  if (relation.type === 'duplicate-of') {
    await withdrawProposal(deps, trx, relation.from_object_id, `Confirmed as a duplicate of ${relation.to_object_id}.`)
    return
  }
  if (relation.type !== 'supersedes') return
  const later = await repo.findObject(trx, caller.membership.workspaceId, relation.from_object_id)
  const open = await trx.selectFrom('work_clarifications').selectAll().where('work_set_id', '=', set.id)
    .where('kind', '=', 'contradiction').where('status', 'in', ['open', 'deferred']).execute()
  const now = nowIso()
  for (const row of open) {
    const ids = JSON.parse(row.work_object_ids) as string[]
    if (!ids.includes(relation.from_object_id) || !ids.includes(relation.to_object_id)) continue
    const settled = (await trx.updateTable('work_clarifications').set({
      status: 'confirmed', answer: later ? `“${later.title}” stands.` : 'The later decision stands.', resolved_by: caller.actor.accountId, resolved_at: now, updated_at: now,
    }).where('id', '=', row.id).returningAll().executeTakeFirst())!
    await announce(deps, trx, set, 'workset.clarification', { action: 'resolved', clarification: presentClarification(settled) })
  }
}
