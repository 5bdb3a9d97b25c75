// Clarify items and relations of a work set. The extraction engine raises them (`recordFollowups`,
// in the transaction of its run); a person settles them through PATCH /v1/sessions/{id}/workset
// (workset-actions.ts). Each change bumps the set's revision and is logged on the conversation.
import type { Selectable } from 'kysely'
import type { AppDeps } from '../../platform/deps.ts'
import type { WorkClarificationTable, WorkRelationTable } from '../../platform/db/tables.ts'
import { newId, nowIso } from '../../platform/ids.ts'
import type { Executor } from '../../platform/realtime/types.ts'
import * as repo from './repo.ts'

export type ClarificationRow = Selectable<WorkClarificationTable>
export type RelationRow = Selectable<WorkRelationTable>

export type RaisedClarification = { key: string; kind: string; question: string; workObjectIds: string[]; sourceSegmentIds: string[] }
export type ProposedRelation = { key: string; type: RelationRow['type']; fromObjectId: string; toObjectId: string; confidence: number }

export function presentClarification(row: ClarificationRow) {
  return {
    id: row.id, workSetId: row.work_set_id, kind: row.kind, question: row.question,
    workObjectIds: JSON.parse(row.work_object_ids) as string[], sourceSegmentIds: JSON.parse(row.source_segment_ids) as string[],
    status: row.status, ...(row.answer !== null ? { answer: row.answer } : {}),
    ...(row.resolved_by !== null ? { resolvedById: row.resolved_by } : {}), ...(row.resolved_at !== null ? { resolvedAt: row.resolved_at } : {}),
    createdAt: row.created_at, updatedAt: row.updated_at,
  }
}
export type Clarification = ReturnType<typeof presentClarification>

export function presentRelation(row: RelationRow) {
  return {
    id: row.id, workSetId: row.work_set_id, type: row.type, fromWorkObjectId: row.from_object_id, toWorkObjectId: row.to_object_id,
    confidence: Number(row.confidence), status: row.status,
    ...(row.decided_by !== null ? { decidedById: row.decided_by } : {}), ...(row.decided_at !== null ? { decidedAt: row.decided_at } : {}),
    createdAt: row.created_at, updatedAt: row.updated_at,
  }
}
export type Relation = ReturnType<typeof presentRelation>

export const listSetClarifications = (db: Executor, workSetId: string) =>
  db.selectFrom('work_clarifications').selectAll().where('work_set_id', '=', workSetId).orderBy('created_at').orderBy('id').execute()

export const listSetRelations = (db: Executor, workSetId: string) =>
  db.selectFrom('work_relations').selectAll().where('work_set_id', '=', workSetId).orderBy('created_at').orderBy('id').execute()

/**
 * Logs the change on the conversation, bumps the set's revision and logs `workset.updated`, in the
 * caller's transaction. Answers the bumped set's revision, takeover state and session.
 */
export async function announce(deps: AppDeps, trx: Executor, set: { id: string; conversation_id: string }, type: string, data: Record<string, unknown>, at = nowIso()) {
  await deps.events.append(trx, set.conversation_id, type, data)
  const bumped = await repo.bumpWorkSet(trx, set.id, at)
  await deps.events.append(trx, set.conversation_id, 'workset.updated', { workSetId: set.id, revision: bumped.revision })
  // Whoever derives from work (project memory) hears of it in the same transaction.
  await deps.ports.workChanged?.(trx, { workspaceId: bumped.workspace_id, sessionId: bumped.session_id })
  return bumped
}

/**
 * Stores what one extraction run raised: new clarify items and relations (by the engine's stable
 * key, so a later run never raises one twice), and marks `obsolete` the open clarify items the run
 * no longer raises (the meeting answered them: an owner was named later). Answers how many changed.
 */
export async function recordFollowups(deps: AppDeps, trx: Executor, sessionId: string, found: {
  clarifications: RaisedClarification[]
  relations: ProposedRelation[]
}) {
  const set = await repo.findWorkSetOfSession(trx, sessionId)
  if (!set) return 0
  const now = nowIso()
  let changed = 0
  // One question per subject: a clarify item about the same objects (another engine's key for the
  // same question) counts as raised again rather than being asked twice.
  const existing = await trx.selectFrom('work_clarifications').selectAll().where('session_id', '=', sessionId).execute()
  const subject = (kind: string, ids: string[]) => `${kind}|${[...ids].sort().join(',')}`
  const bySubject = new Map(existing.map((row) => [subject(row.kind, JSON.parse(row.work_object_ids) as string[]), row]))
  const raised = new Set<string>()
  for (const item of found.clarifications) {
    const same = bySubject.get(subject(item.kind, item.workObjectIds))
    if (same && same.clarify_key !== item.key) {
      raised.add(same.clarify_key)
      continue
    }
    raised.add(item.key)
    const inserted = await trx.insertInto('work_clarifications').values({
      id: newId('clr'), work_set_id: set.id, session_id: sessionId, clarify_key: item.key, kind: item.kind, question: item.question,
      work_object_ids: JSON.stringify(item.workObjectIds), source_segment_ids: JSON.stringify(item.sourceSegmentIds),
      status: 'open', answer: null, resolved_by: null, resolved_at: null, created_at: now, updated_at: now,
    }).onConflict((oc) => oc.columns(['session_id', 'clarify_key']).doNothing()).returningAll().executeTakeFirst()
    if (inserted) {
      changed += 1
      await deps.events.append(trx, set.conversation_id, 'workset.clarification', { action: 'raised', clarification: presentClarification(inserted) })
    }
  }
  for (const row of existing.filter((candidate) => candidate.status === 'open' && !raised.has(candidate.clarify_key))) {
    const updated = await trx.updateTable('work_clarifications').set({ status: 'obsolete', updated_at: now })
      .where('id', '=', row.id).where('status', '=', 'open').returningAll().executeTakeFirst()
    if (!updated) continue
    changed += 1
    await deps.events.append(trx, set.conversation_id, 'workset.clarification', { action: 'obsolete', clarification: presentClarification(updated) })
  }
  for (const item of found.relations) {
    const inserted = await trx.insertInto('work_relations').values({
      id: newId('rel'), work_set_id: set.id, session_id: sessionId, relation_key: item.key, type: item.type,
      from_object_id: item.fromObjectId, to_object_id: item.toObjectId, confidence: item.confidence, status: 'proposed',
      decided_by: null, decided_at: null, created_at: now, updated_at: now,
    }).onConflict((oc) => oc.columns(['session_id', 'relation_key']).doNothing()).returningAll().executeTakeFirst()
    if (inserted) {
      changed += 1
      await deps.events.append(trx, set.conversation_id, 'workset.relation', { action: 'proposed', relation: presentRelation(inserted) })
    }
  }
  if (changed > 0) {
    const { revision } = await repo.bumpWorkSet(trx, set.id, now)
    await deps.events.append(trx, set.conversation_id, 'workset.updated', { workSetId: set.id, revision })
  }
  return changed
}
