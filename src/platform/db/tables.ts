// Row types of Confer's own tables. better-auth owns auth_user, auth_session, auth_account and
// auth_verification (created by its own migrator, see migrate.ts); we read them through AuthTables.
// Timestamps are ISO 8601 text on both databases, booleans are 0/1 integers: one portable shape.
import type { ColumnType, Generated } from 'kysely'

export type WorkspaceTable = {
  id: string
  name: string
  created_by: string
  created_at: string
  updated_at: string
}

export type WorkspaceMemberTable = {
  workspace_id: string
  account_id: string
  access_role: 'owner' | 'admin' | 'member'
  content_permission: 'edit' | 'view'
  job_role: string | null
  created_at: string
  updated_at: string
}

export type AccountSettingsTable = {
  account_id: string
  active_workspace_id: string | null
  locale: string | null
  timezone: string | null
  avatar_asset_id: string | null
  created_at: string
  updated_at: string
}

export type InvitationTable = {
  id: string
  workspace_id: string
  email: string
  access_role: 'admin' | 'member'
  content_permission: 'edit' | 'view'
  job_role: string | null
  project_id: string | null
  token_hash: string
  invited_by: string
  /** 'expired': a pending invitation past expires_at that a new invitation replaced */
  status: 'pending' | 'accepted' | 'revoked' | 'expired'
  expires_at: string
  accepted_at: string | null
  accepted_by: string | null
  created_at: string
  updated_at: string
  /** how the link last went out: 'email' (SMTP) or 'link' (only returned to the inviter) */
  delivery: ColumnType<'email' | 'link' | null, 'email' | 'link' | null | undefined, 'email' | 'link' | null>
  last_sent_at: ColumnType<string | null, string | null | undefined, string | null>
  send_count: ColumnType<number, number | undefined, number>
}

export type ProjectRole = 'product' | 'design' | 'engineering' | 'operations' | 'project-management' | 'other'

export type ProjectTable = {
  id: string
  workspace_id: string
  name: string
  objective: string | null
  description: string | null
  default_language: string | null
  timezone: string | null
  status: 'active' | 'archived'
  created_by: string
  archived_at: string | null
  created_at: string
  updated_at: string
}

export type ProjectMemberTable = {
  project_id: string
  workspace_id: string
  account_id: string
  primary_role: ProjectRole
  /** JSON array of ProjectRole */
  secondary_roles: string
  added_by: string | null
  created_at: string
  updated_at: string
}

export type NotificationTable = {
  id: string
  workspace_id: string
  recipient_account_id: string
  kind: string
  actor_account_id: string | null
  subject_type: string | null
  subject_id: string | null
  /** JSON object */
  data: string
  read_at: string | null
  created_at: string
}

export type AssetTable = {
  id: string
  owner_account_id: string
  workspace_id: string | null
  purpose: 'avatar'
  content_type: string
  byte_size: number
  sha256: string
  blob_key: string
  created_at: string
}

export type BlobTable = {
  key: string
  data: Uint8Array
  byte_size: number
  created_at: string
}

export type MailOutboxTable = {
  id: string
  to_address: string
  subject: string
  body_text: string | null
  status: 'sent' | 'stored' | 'failed'
  error: string | null
  created_at: string
}

export type OtpMailboxTable = { email: string; updated_at: string }
export type OtpSendTable = { id: string; email: string; sent_at: string }

export type IdempotencyKeyTable = {
  account_id: string
  method: string
  route: string
  key: string
  fingerprint: string
  state: 'in-flight' | 'completed'
  status_code: number | null
  response_body: string | null
  created_at: string
  expires_at: string
}

export type AuthUserTable = {
  id: string
  name: string
  email: string
  emailVerified: ColumnType<boolean | number, boolean | number, boolean | number>
  image: string | null
  createdAt: ColumnType<Date | string, Date | string, Date | string>
  updatedAt: ColumnType<Date | string, Date | string, Date | string>
}

export type AuthSessionTable = {
  id: string
  token: string
  userId: string
  expiresAt: ColumnType<Date | string, Date | string, Date | string>
  createdAt: ColumnType<Date | string, Date | string, Date | string>
  updatedAt: ColumnType<Date | string, Date | string, Date | string>
}

export type ConversationEventCounterTable = { conversation_id: string; last_seq: number }

export type ConversationEventTable = {
  conversation_id: string
  seq: number
  type: string
  channel: 'session' | 'work'
  /** JSON text */
  data: string
  at: string
}

export type ConversationTable = {
  id: string
  workspace_id: string
  session_id: string
  created_at: string
}

export type CaptureMode = 'microphone' | 'microphone-and-system-audio'
export type CaptureSessionState = 'recording' | 'processing' | 'ready' | 'failed'

export type CaptureSessionTable = {
  id: string
  workspace_id: string
  account_id: string
  conversation_id: string
  project_id: string | null
  title: string
  capture_mode: CaptureMode
  state: CaptureSessionState
  failure_reason: string | null
  archived_at: string | null
  started_at: string
  ended_at: string | null
  chunk_count: ColumnType<number, number | undefined, number>
  audio_bytes: ColumnType<number, number | undefined, number>
  last_sequence: ColumnType<number, number | undefined, number>
  progress_event_at: string | null
  /** openai | whisper | pocketsphinx | client (added by 0006) */
  transcription_engine: ColumnType<string | null, string | null | undefined, string | null>
  created_at: string
  updated_at: string
}

export type AudioChunkTable = {
  session_id: string
  /** the client's X-Service-Chunk-ID */
  chunk_id: string
  sequence: number
  content_type: string
  byte_size: number
  sha256: string
  blob_key: string
  received_at: string
}

export type JobState = 'queued' | 'running' | 'succeeded' | 'dead'

export type JobTable = {
  id: string
  name: string
  /** JSON text */
  payload: string
  state: JobState
  attempts: ColumnType<number, number | undefined, number>
  max_attempts: number
  run_at: string
  /** the node that claimed it last */
  locked_by: string | null
  locked_until: string | null
  last_error: string | null
  dedupe_key: string | null
  created_at: string
  updated_at: string
  finished_at: string | null
}

export type TranscriptSegmentStatus = 'partial' | 'final'
/** server: transcribed from uploaded audio; client: recognised on the client and pushed over the socket */
export type TranscriptSegmentSource = 'server' | 'client'

export type TranscriptSegmentTable = {
  id: string
  session_id: string
  workspace_id: string
  start_ms: number
  end_ms: number
  speaker_id: string | null
  text: string
  status: TranscriptSegmentStatus
  source: TranscriptSegmentSource
  engine: string | null
  language: string | null
  confidence: number | null
  /** JSON text: [{word, startMs, endMs, confidence}] */
  words: string | null
  created_at: string
  updated_at: string
}

export type SessionSpeakerTable = {
  session_id: string
  speaker_id: string
  label: string
  pitch_hz: number | null
  created_at: string
  updated_at: string
}

export type TranscriptionStateTable = {
  session_id: string
  version: number
  processed_sequence: number
  audio_ms: number
  tail_blob_key: string | null
  tail_start_ms: number
  open_segment_id: string | null
  stream_first_sequence: number | null
  stream_samples: number
  engine: string | null
  last_error: string | null
  updated_at: string
}

export type SharePermission = 'read' | 'comment'

export type SessionShareTable = {
  id: string
  session_id: string
  workspace_id: string
  token_hash: string
  permission: SharePermission
  expires_at: string
  revoked_at: string | null
  created_by: string
  created_at: string
  updated_at: string
}

export type WorkKind = 'outcome' | 'decision' | 'action' | 'question' | 'reference'
export type WorkStage = 'captured' | 'structured' | 'executing' | 'ready-for-review' | 'accepted'
export type ResponsibilityState = 'todo' | 'in-progress' | 'blocked' | 'done'
export type ProposalState = 'pending' | 'accepted' | 'rejected' | 'superseded'
export type ReviewTaskState = 'open' | 'requested' | 'approved' | 'changes-requested' | 'returned' | 'taken-over'
export type TakeoverState = 'pending' | 'ready' | 'failed' | 'empty'

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

export type ClarificationStatus = 'open' | 'confirmed' | 'deferred' | 'dismissed' | 'obsolete'
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

export type RelationStatus = 'proposed' | 'confirmed' | 'rejected'
export type WorkRelationTable = {
  id: string
  work_set_id: string
  session_id: string
  relation_key: string
  type: 'duplicate-of' | 'depends-on' | 'supersedes'
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

export type WorkRefinementTable = {
  session_id: string
  /** idle (nothing run yet) | running | ready | failed */
  state: 'idle' | 'running' | 'ready' | 'failed'
  engine: string
  gate: number
  segments_processed: number
  items_found: number
  items_visible: number
  last_error: string | null
  last_run_at: string | null
  updated_at: string
}

export type ExtractionItemTable = {
  session_id: string
  item_key: string
  kind: string
  confidence: number
  gate: number
  hidden: number
  work_object_id: string | null
  /** JSON of the engine's ExtractedItem */
  payload: string
  created_at: string
}

export type Tables = {
  workspaces: WorkspaceTable
  workspace_members: WorkspaceMemberTable
  account_settings: AccountSettingsTable
  invitations: InvitationTable
  projects: ProjectTable
  project_members: ProjectMemberTable
  notifications: NotificationTable
  assets: AssetTable
  blobs: BlobTable
  mail_outbox: MailOutboxTable
  otp_mailboxes: OtpMailboxTable
  otp_sends: OtpSendTable
  idempotency_keys: IdempotencyKeyTable
  conversation_event_counters: ConversationEventCounterTable
  conversation_events: ConversationEventTable
  conversations: ConversationTable
  capture_sessions: CaptureSessionTable
  audio_chunks: AudioChunkTable
  jobs: JobTable
  transcript_segments: TranscriptSegmentTable
  session_speakers: SessionSpeakerTable
  session_shares: SessionShareTable
  transcription_state: TranscriptionStateTable
  work_refinements: WorkRefinementTable
  extraction_items: ExtractionItemTable
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
  auth_user: AuthUserTable
  auth_session: AuthSessionTable
  schema_probe: { id: Generated<number> }
}
