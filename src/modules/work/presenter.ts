// Rows → API shapes of the work module. Absent optionals are omitted (DESIGN §3).
import type { TakeoverState } from '../../platform/db/tables.ts'
import type { ActivityRow, CommentRow, RevisionRow, ReviewRow, WorkObjectRow, WorkSetRow } from './repo.ts'

const opt = <K extends string, V>(key: K, value: V | null | undefined): { [P in K]?: V } =>
  (value === null || value === undefined ? {} : { [key]: value }) as { [P in K]?: V }

/** The set, with `takeoverState` as the takeover's reader sees it (takeover.ts). */
export function presentWorkSet(row: WorkSetRow, takeoverState: TakeoverState) {
  return {
    id: row.id, sessionId: row.session_id, conversationId: row.conversation_id, revision: row.revision,
    takeoverState, needsRebuild: row.needs_rebuild === 1, createdAt: row.created_at, updatedAt: row.updated_at,
  }
}

function proposalOf(row: WorkObjectRow) {
  if (row.pending_revision_id !== null) return { proposal: { state: 'pending' as const, kind: 'revision' as const, revisionId: row.pending_revision_id } }
  if (row.proposal_state === null || row.proposal_state === 'superseded') return {}
  return { proposal: { state: row.proposal_state, kind: 'object' as const, revisionId: row.current_revision_id } }
}

/** What executed external actions made for the object (receipts), oldest first; omitted while none. */
export type ExternalRef = { provider: string; externalId: string; url?: string; summary?: string; actionId: string; executionId: string; at: string }

function externalRefsOf(row: WorkObjectRow): { externalRefs?: ExternalRef[] } {
  const refs = row.external_refs ? JSON.parse(row.external_refs) as ExternalRef[] : []
  return refs.length > 0 ? { externalRefs: refs } : {}
}

export function presentWorkObject(row: WorkObjectRow) {
  return {
    id: row.id, workSetId: row.work_set_id, sessionId: row.session_id, conversationId: row.conversation_id,
    kind: row.kind, family: row.family, semanticType: row.semantic_type, title: row.title,
    ...opt('summary', row.summary),
    ...opt('nextStep', row.next_step as 'organize' | null),
    destination: row.target_project_id === null ? 'inbox' as const : 'project' as const,
    ...opt('targetProjectId', row.target_project_id),
    sourceSegmentIds: JSON.parse(row.source_segment_ids) as string[],
    origin: row.origin,
    ...opt('confidence', row.confidence),
    ...opt('suggestedOwnerName', row.owner_hint),
    ...opt('suggestedOwnerId', row.owner_hint_account_id),
    ...opt('dueDate', row.due_date),
    ...proposalOf(row),
    stage: row.stage,
    responsibility: { state: row.responsibility_state, ...opt('blockedReason', row.blocked_reason), updatedAt: row.responsibility_updated_at },
    ...opt('ownerId', row.owner_account_id),
    ...opt('reviewerId', row.reviewer_account_id),
    reviewId: row.current_review_id,
    revisionId: row.current_revision_id, revisionHash: row.revision_hash, revisionNumber: row.revision_number,
    ...opt('createdById', row.created_by),
    ...externalRefsOf(row),
    createdAt: row.created_at, updatedAt: row.updated_at,
  }
}
export type WorkObject = ReturnType<typeof presentWorkObject>

export function presentRevision(row: RevisionRow) {
  return {
    id: row.id, workObjectId: row.work_object_id, number: row.number, hash: row.hash,
    content: { title: row.title, ...opt('summary', row.summary) },
    authorKind: row.author_kind, ...opt('authorId', row.author_account_id),
    ...opt('proposalState', row.proposal_state), ...opt('confidence', row.confidence),
    createdAt: row.created_at,
  }
}

export function presentReview(row: ReviewRow) {
  return {
    id: row.id, workObjectId: row.work_object_id, workSetId: row.work_set_id, state: row.state,
    ...opt('reviewerId', row.reviewer_account_id), ...opt('revisionId', row.revision_id),
    ...opt('requestedById', row.requested_by), ...opt('requestedAt', row.requested_at),
    ...opt('decision', row.decision), ...opt('note', row.decision_note),
    ...opt('decidedById', row.decided_by), ...opt('decidedAt', row.decided_at),
    createdAt: row.created_at, updatedAt: row.updated_at,
  }
}

export function presentComment(row: CommentRow) {
  return {
    id: row.id, workObjectId: row.work_object_id, body: row.body, ...opt('authorId', row.author_account_id),
    authorName: row.author_name, viaShare: row.share_id !== null, createdAt: row.created_at, updatedAt: row.updated_at,
  }
}

export function presentActivity(row: ActivityRow) {
  return {
    id: row.id, verb: row.verb, ...opt('field', row.field), ...opt('oldValue', row.old_value), ...opt('newValue', row.new_value),
    ...opt('note', row.note), ...opt('actorId', row.actor_account_id), at: row.at,
  }
}
