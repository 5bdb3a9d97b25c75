// TypeBox schemas of the work module: work sets, work objects, revisions, review tasks, comments.
import { Type, type Static } from 'typebox'
import { FAMILIES, SEMANTIC_TYPES } from './policy.ts'
import { PROPOSAL_STATES, RESPONSIBILITY_STATES, REVIEW_TASK_STATES, TAKEOVER_STATES, WORK_KINDS, WORK_STAGES } from '../../domain/vocabulary.ts'
import { literals } from '../../platform/http/enums.ts'

const Timestamp = Type.String({ format: 'date-time' })
const Id = Type.String({ minLength: 1, maxLength: 80 })
export { literals }

export const Kind = literals(WORK_KINDS, {
  description: 'MeetingWorkKind, the unified team label; `family` and `semanticType` refine it.',
})
export const Stage = literals(WORK_STAGES)
export const NextStep = literals(['organize', 'runner-a', 'moodboard', 'visual-proposal'] as const, {
  description: 'The production branch chosen when capturing. It prepares internal work only and triggers nothing external.',
})
export const ResponsibilityStateSchema = literals(RESPONSIBILITY_STATES)
const Title = Type.String({ minLength: 1, maxLength: 500, description: 'At least one character after trimming.' })
const Summary = Type.String({ maxLength: 20_000 })
const Note = Type.String({ maxLength: 2000 })

export const WorkObject = Type.Object({
  id: Type.String(),
  workSetId: Type.String(),
  sessionId: Type.String(),
  conversationId: Type.String(),
  kind: Kind,
  family: Type.String(),
  semanticType: Type.String(),
  title: Type.String(),
  summary: Type.Optional(Type.String()),
  nextStep: Type.Optional(NextStep),
  destination: literals(['project', 'inbox'] as const, { description: 'project when targetProjectId is set, else the inbox.' }),
  targetProjectId: Type.Optional(Type.String()),
  sourceSegmentIds: Type.Array(Type.String()),
  origin: literals(['person', 'ai'] as const),
  confidence: Type.Optional(Type.Number()),
  suggestedOwnerName: Type.Optional(Type.String({ description: 'Who takes it, as the extraction engine heard it; a person assigns the account (ownerId).' })),
  suggestedOwnerId: Type.Optional(Type.String({ description: 'The member suggestedOwnerName matched (an account id): one assignment away.' })),
  dueDate: Type.Optional(Type.String({ format: 'date', description: 'By when, as said in the meeting (local date).' })),
  proposal: Type.Optional(Type.Object({
    state: literals(['pending', 'accepted', 'rejected'] as const),
    kind: literals(['object', 'revision'] as const, { description: 'object: the AI proposed the object; revision: an AI revision awaits a decision.' }),
    revisionId: Type.String({ description: 'The proposed revision: pass it as expectedRevisionId.' }),
  }, { description: 'Present for AI-made objects and while an AI revision awaits a decision.' })),
  stage: Stage,
  responsibility: Type.Object({
    state: ResponsibilityStateSchema,
    blockedReason: Type.Optional(Type.String()),
    updatedAt: Timestamp,
  }),
  ownerId: Type.Optional(Type.String({ description: 'Account id of the responsible person.' })),
  reviewerId: Type.Optional(Type.String({ description: 'Account id of the designated reviewer of the current review task.' })),
  reviewId: Type.String({ description: 'The current review task (designate a reviewer, request, decide).' }),
  revisionId: Type.String(),
  revisionHash: Type.String(),
  revisionNumber: Type.Integer(),
  createdById: Type.Optional(Type.String()),
  externalRefs: Type.Optional(Type.Array(Type.Object({
    provider: Type.String({ description: 'The connected tool, e.g. `github`.' }),
    externalId: Type.String({ description: 'The created item\'s id at the provider (e.g. `octo-org/launch#12`).' }),
    url: Type.Optional(Type.String({ description: 'Where the created item is.' })),
    summary: Type.Optional(Type.String()),
    actionId: Type.String({ description: 'The prepared action (PreparedExternalAction id) that made it.' }),
    executionId: Type.String({ description: 'The execution whose receipt this is (GET /v1/executions/{executionId}).' }),
    at: Timestamp,
  }), { description: 'Receipts of the external actions executed for this object, oldest first (the created issue\'s id and URL). Omitted while none. Each is also in the object\'s activity (verb `external.created`).' })),
  createdAt: Timestamp,
  updatedAt: Timestamp,
}, { $id: 'WorkObject' })

export const WorkObjectRevision = Type.Object({
  id: Type.String(),
  workObjectId: Type.String(),
  number: Type.Integer(),
  hash: Type.String(),
  content: Type.Object({ title: Type.String(), summary: Type.Optional(Type.String()) }),
  authorKind: literals(['person', 'ai'] as const),
  authorId: Type.Optional(Type.String()),
  proposalState: Type.Optional(literals(PROPOSAL_STATES)),
  confidence: Type.Optional(Type.Number()),
  createdAt: Timestamp,
}, { $id: 'WorkObjectRevision' })

export const ReviewTask = Type.Object({
  id: Type.String(),
  workObjectId: Type.String(),
  workSetId: Type.String(),
  state: literals(REVIEW_TASK_STATES, {
    description: 'open: a reviewer may be designated; requested: a revision awaits a decision; the rest are final decisions.',
  }),
  reviewerId: Type.Optional(Type.String()),
  revisionId: Type.Optional(Type.String()),
  requestedById: Type.Optional(Type.String()),
  requestedAt: Type.Optional(Timestamp),
  decision: Type.Optional(Type.String()),
  note: Type.Optional(Type.String()),
  decidedById: Type.Optional(Type.String()),
  decidedAt: Type.Optional(Timestamp),
  createdAt: Timestamp,
  updatedAt: Timestamp,
}, { $id: 'ReviewTask' })

export const WorkComment = Type.Object({
  id: Type.String(),
  workObjectId: Type.String(),
  body: Type.String(),
  authorId: Type.Optional(Type.String({ description: 'Account id; absent for a comment made through a share link.' })),
  authorName: Type.String(),
  viaShare: Type.Boolean(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
}, { $id: 'WorkComment' })

export const WorkSetV2 = Type.Object({
  id: Type.String(),
  sessionId: Type.String(),
  conversationId: Type.String(),
  revision: Type.Integer({ description: 'Bumped by every change to the set or its objects.' }),
  takeoverState: literals(TAKEOVER_STATES),
  needsRebuild: Type.Boolean(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
}, { $id: 'WorkSetV2' })

export const WorkSetDetail = Type.Object({
  workSet: Type.Ref('WorkSetV2'),
  workObjects: Type.Array(Type.Ref('WorkObject')),
  revisions: Type.Array(Type.Ref('WorkObjectRevision')),
  reviewTasks: Type.Array(Type.Ref('ReviewTask')),
  actions: Type.Array(Type.Object({}, { additionalProperties: true }), { description: 'ActionV2[]: recommended actions (state `recommended`) and prepared ones (PreparedExternalAction), from the integrations module.' }),
  executions: Type.Array(Type.Object({}, { additionalProperties: true }), { description: 'ExecutionV2[]: executions of the set\'s actions, with their receipts.' }),
  needsRebuild: Type.Boolean(),
  takeoverState: literals(TAKEOVER_STATES),
  takeoverSummary: Type.Optional(Type.Ref('TakeoverSummary', { description: 'The latest non-superseded takeover summary; omitted when the set has no real action items.' })),
  takeoverFailure: Type.Optional(Type.Object({ code: Type.String(), detail: Type.String(), at: Type.String({ format: 'date-time' }) }, {
    description: 'When takeoverState is failed: why. PATCH /v1/sessions/{id}/workset with `takeover.retry` derives it again.',
  })),
  clarifications: Type.Array(Type.Ref('WorkClarification'), { description: 'Clarify items raised by the extraction, open and settled.' }),
  relations: Type.Array(Type.Ref('WorkRelation'), { description: 'Relations between the listed work objects, proposed and decided.' }),
})

export const ActivityEntry = Type.Object({
  id: Type.String(),
  verb: Type.String(),
  field: Type.Optional(Type.String()),
  oldValue: Type.Optional(Type.String()),
  newValue: Type.Optional(Type.String()),
  note: Type.Optional(Type.String()),
  actorId: Type.Optional(Type.String({ description: 'Absent when the extraction engine acted.' })),
  at: Timestamp,
})

// ---- params and bodies ----

export const SessionParams = Type.Object({ sessionId: Id })
export const WorkObjectParams = Type.Object({ workObjectId: Id })
export const WorkSetParams = Type.Object({ workSetId: Id })
export const ConversationParams = Type.Object({ conversationId: Id })
export const CommentParams = Type.Object({ workObjectId: Id, commentId: Id })
export const ReviewParams = Type.Object({ reviewId: Id })

export const CreateWorkObjectBody = Type.Object({
  kind: Kind,
  title: Type.Optional(Title),
  summary: Type.Optional(Summary),
  sourceSegmentIds: Type.Optional(Type.Array(Id, { maxItems: 500, description: 'Segments of this session the object stems from.' })),
  nextStep: Type.Optional(NextStep),
  targetProjectId: Type.Optional(Type.Union([Id, Type.Null()], { description: 'A project of the workspace; absent or null: the inbox.' })),
  family: Type.Optional(literals(FAMILIES, { description: 'Derived from kind when absent; must match it.' })),
  semanticType: Type.Optional(literals(SEMANTIC_TYPES, { description: 'Defaults to the kind\'s first semantic type; must belong to the kind.' })),
}, { additionalProperties: false })
export type CreateWorkObjectInput = Static<typeof CreateWorkObjectBody>

export const EditWorkObjectBody = Type.Object({
  expectedRevisionHash: Type.String({ minLength: 1, maxLength: 128 }),
  content: Type.Object({
    title: Title, summary: Type.Optional(Type.Union([Summary, Type.Null()])),
    nextStep: Type.Optional(Type.Union([NextStep, Type.Null()], { description: 'Same as the top-level `nextStep` (give one of the two).' })),
  }, { additionalProperties: false }),
  dueDate: Type.Optional(Type.Union([Type.String({ format: 'date' }), Type.Null()], {
    description: 'By when (local date, YYYY-MM-DD); null clears it, absent keeps it. Not part of the content: changing only the date makes no revision.',
  })),
  nextStep: Type.Optional(Type.Union([NextStep, Type.Null()], {
    description: 'The production branch (MeetingWorkNextStep); null clears it, absent keeps it. Like dueDate, not part of the hashed content: changing only the next step makes no revision. Authorizes no external side effect.',
  })),
}, { additionalProperties: false })
export type EditWorkObjectInput = Static<typeof EditWorkObjectBody>

export const ProposalDecisionBody = Type.Object({
  decision: literals(['accept', 'reject'] as const),
  expectedRevisionId: Type.String({ minLength: 1, maxLength: 80, description: 'The proposal\'s revisionId (WorkObject.proposal.revisionId).' }),
  note: Type.Optional(Note),
}, { additionalProperties: false })
export type ProposalDecisionInput = Static<typeof ProposalDecisionBody>

export const WorkProposalDecision = Type.Object({
  workObjectId: Type.String(),
  revisionId: Type.String(),
  decision: literals(['accept', 'reject'] as const),
  note: Type.Optional(Type.String()),
  decidedById: Type.String(),
  decidedAt: Timestamp,
})

export const StageBody = Type.Object({
  fromStage: Stage,
  toStage: Stage,
  note: Type.Optional(Note),
}, { additionalProperties: false })
export type StageInput = Static<typeof StageBody>

export const StageTransition = Type.Object({
  workObjectId: Type.String(),
  fromStage: Stage,
  toStage: Stage,
  note: Type.Optional(Type.String()),
  actorId: Type.String(),
  at: Timestamp,
})

export const ResponsibilityBody = Type.Object({
  expectedResponsibilityUpdatedAt: Timestamp,
  state: ResponsibilityStateSchema,
  blockedReason: Type.Optional(Type.String({ maxLength: 2000, description: 'Required (non-blank) when state is blocked; cleared otherwise.' })),
}, { additionalProperties: false })
export type ResponsibilityInput = Static<typeof ResponsibilityBody>

export const AssignmentBody = Type.Object({
  action: literals(['claim', 'assign', 'release'] as const),
  userId: Type.Optional(Id),
}, { additionalProperties: false })
export type AssignmentInput = Static<typeof AssignmentBody>

export const CreateCommentBody = Type.Object({ body: Type.String({ minLength: 1, maxLength: 10_000 }) }, { additionalProperties: false })
export const EditCommentBody = Type.Object({
  expectedUpdatedAt: Timestamp,
  body: Type.String({ minLength: 1, maxLength: 10_000 }),
}, { additionalProperties: false })
export type EditCommentInput = Static<typeof EditCommentBody>

export const ReviewRequestBody = Type.Object({ revisionId: Type.String({ minLength: 1, maxLength: 80 }) }, { additionalProperties: false })
export const ReviewDecisionBody = Type.Object({
  revisionId: Type.String({ minLength: 1, maxLength: 80 }),
  decision: literals(['approved', 'changes-requested', 'returned', 'taken-over', 'reassigned'] as const),
  note: Type.Optional(Note),
  reassignedToUserId: Type.Optional(Id),
}, { additionalProperties: false })
export type ReviewDecisionInput = Static<typeof ReviewDecisionBody>

export const ReviewResult = Type.Object({ review: Type.Ref('ReviewTask'), workObject: Type.Ref('WorkObject') })

export const workSchemas = [WorkObject, WorkObjectRevision, ReviewTask, WorkComment, WorkSetV2]
