// Row types of the tables owned by the work module.
// Only that owner queries them; other modules go through its index.ts (docs/ARCHITECTURE.md).
import type { Generated } from 'kysely'
import type { ClarificationStatus, ProposalState, RelationStatus, RelationType, ResponsibilityState, ReviewTaskState, TakeoverState, WorkKind, WorkStage } from '../../../domain/vocabulary.ts'

export type { ClarificationStatus, ProposalState, RelationStatus, ResponsibilityState, ReviewTaskState, TakeoverState, WorkKind, WorkStage }


export type WorkSetTable = {
  id: string
  workspace_id: string
  session_id: string
  conversation_id: string
  revision: number
  takeover_state: TakeoverState | null
  needs_rebuild: number
  created_at: string
  updated_at: string
}

export type WorkClarificationTable = {
  id: string
  work_set_id: string
  session_id: string
  clarify_key: string
  kind: string
  question: string
  /** JSON text: the work objects it asks about */
  work_object_ids: string
  /** JSON text: segment ids */
  source_segment_ids: string
  status: ClarificationStatus
  answer: string | null
  resolved_by: string | null
  resolved_at: string | null
  created_at: string
  updated_at: string
}

export type WorkRelationTable = {
  id: string
  work_set_id: string
  session_id: string
  relation_key: string
  type: RelationType
  from_object_id: string
  to_object_id: string
  confidence: number
  status: RelationStatus
  decided_by: string | null
  decided_at: string | null
  created_at: string
  updated_at: string
}

export type TakeoverSummaryTable = {
  id: string
  work_set_id: string
  work_set_revision: number
  state: 'ready' | 'failed' | 'empty'
  generated_by: 'extractive' | 'grounded-ai'
  action_items: number
  /** JSON text: the summary's blocks (ready only) */
  content: string | null
  error: string | null
  superseded_by: string | null
  created_at: string
}

export type WorkSetActionTable = {
  work_set_id: string
  idempotency_key: string
  action: string
  fingerprint: string
  state: 'in-flight' | 'completed'
  /** JSON text: the answer replayed for the key */
  response: string | null
  actor_account_id: string
  created_at: string
  completed_at: string | null
}

export type WorkObjectTable = {
  id: string
  workspace_id: string
  work_set_id: string
  session_id: string
  conversation_id: string
  kind: WorkKind
  family: string
  semantic_type: string
  title: string
  summary: string | null
  next_step: string | null
  target_project_id: string | null
  /** JSON text: segment ids */
  source_segment_ids: string
  origin: 'person' | 'ai'
  confidence: number | null
  proposal_state: ProposalState | null
  /** the owner's name as the engine heard it, until a person assigns an account */
  owner_hint: string | null
  /** the member that name is, when the engine matched it to one */
  owner_hint_account_id: string | null
  /** YYYY-MM-DD, local to the meeting */
  due_date: string | null
  pending_revision_id: string | null
  current_revision_id: string
  revision_hash: string
  revision_number: number
  stage: WorkStage
  responsibility_state: ResponsibilityState
  blocked_reason: string | null
  responsibility_updated_at: string
  owner_account_id: string | null
  reviewer_account_id: string | null
  current_review_id: string
  /** JSON text: ExternalRef[], what executed external actions made for the object (migration 0020) */
  external_refs: Generated<string>
  created_by: string | null
  created_at: string
  updated_at: string
}

export type WorkRevisionTable = {
  id: string
  work_object_id: string
  work_set_id: string
  number: number
  hash: string
  title: string
  summary: string | null
  author_kind: 'person' | 'ai'
  author_account_id: string | null
  base_revision_id: string | null
  proposal_state: ProposalState | null
  confidence: number | null
  created_at: string
}

export type ReviewTaskTable = {
  id: string
  workspace_id: string
  work_object_id: string
  work_set_id: string
  state: ReviewTaskState
  reviewer_account_id: string | null
  revision_id: string | null
  requested_by: string | null
  requested_at: string | null
  decision: string | null
  decision_note: string | null
  decided_by: string | null
  decided_at: string | null
  created_at: string
  updated_at: string
}

export type WorkCommentTable = {
  id: string
  workspace_id: string
  work_object_id: string
  session_id: string
  author_account_id: string | null
  share_id: string | null
  author_name: string
  body: string
  created_at: string
  updated_at: string
}

export type WorkActivityTable = {
  id: string
  work_object_id: string
  verb: string
  field: string | null
  old_value: string | null
  new_value: string | null
  note: string | null
  actor_account_id: string | null
  at: string
}

export type WorkTables = {
  work_sets: WorkSetTable
  work_clarifications: WorkClarificationTable
  work_relations: WorkRelationTable
  takeover_summaries: TakeoverSummaryTable
  workset_actions: WorkSetActionTable
  work_objects: WorkObjectTable
  work_revisions: WorkRevisionTable
  review_tasks: ReviewTaskTable
  work_comments: WorkCommentTable
  work_activity: WorkActivityTable
}
