// Confer's shared vocabulary, defined once (DESIGN §5, §7): every table type, TypeBox schema,
// policy and engine derives its kinds, stages and states from these lists. Imports nothing.

/** Work object kinds, and each kind's family and semantic types (the first is the default). */
export const WORK_TAXONOMY = {
  outcome: { family: 'result', semanticTypes: ['outcome', 'metric'] },
  decision: { family: 'decision', semanticTypes: ['choice', 'policy'] },
  action: { family: 'commitment', semanticTypes: ['task', 'follow-up', 'request'] },
  question: { family: 'inquiry', semanticTypes: ['open-question', 'risk'] },
  reference: { family: 'artifact', semanticTypes: ['link', 'document'] },
} as const

export type WorkKind = keyof typeof WORK_TAXONOMY
export const WORK_KINDS = Object.keys(WORK_TAXONOMY) as WorkKind[]
export type WorkFamily = (typeof WORK_TAXONOMY)[WorkKind]['family']
export type SemanticType = (typeof WORK_TAXONOMY)[WorkKind]['semanticTypes'][number]
export type SemanticTypeOf<K extends WorkKind> = (typeof WORK_TAXONOMY)[K]['semanticTypes'][number]
export const WORK_FAMILIES = [...new Set(Object.values(WORK_TAXONOMY).map((entry) => entry.family))] as WorkFamily[]
export const SEMANTIC_TYPES = [...new Set(Object.values(WORK_TAXONOMY).flatMap((entry) => entry.semanticTypes))] as SemanticType[]

/** A work object's stages, in order: one step forward or any number back. */
export const WORK_STAGES = ['captured', 'structured', 'executing', 'ready-for-review', 'accepted'] as const
export type WorkStage = (typeof WORK_STAGES)[number]

export const RESPONSIBILITY_STATES = ['todo', 'in-progress', 'blocked', 'done'] as const
export type ResponsibilityState = (typeof RESPONSIBILITY_STATES)[number]

export const PROPOSAL_STATES = ['pending', 'accepted', 'rejected', 'superseded'] as const
export type ProposalState = (typeof PROPOSAL_STATES)[number]

export const REVIEW_TASK_STATES = ['open', 'requested', 'approved', 'changes-requested', 'returned', 'taken-over'] as const
export type ReviewTaskState = (typeof REVIEW_TASK_STATES)[number]

export const TAKEOVER_STATES = ['pending', 'ready', 'failed', 'empty'] as const
export type TakeoverState = (typeof TAKEOVER_STATES)[number]

export const CLARIFICATION_KINDS = ['missing-owner', 'contradiction', 'ambiguous-reference'] as const
export type ClarificationKind = (typeof CLARIFICATION_KINDS)[number]

export const CLARIFICATION_STATUSES = ['open', 'confirmed', 'deferred', 'dismissed', 'obsolete'] as const
export type ClarificationStatus = (typeof CLARIFICATION_STATUSES)[number]

export const RELATION_TYPES = ['duplicate-of', 'depends-on', 'supersedes'] as const
export type RelationType = (typeof RELATION_TYPES)[number]

export const RELATION_STATUSES = ['proposed', 'confirmed', 'rejected'] as const
export type RelationStatus = (typeof RELATION_STATUSES)[number]

/** Capture sessions: `recording → processing → ready | failed`. */
export const SESSION_STATES = ['recording', 'processing', 'ready', 'failed'] as const
export type CaptureSessionState = (typeof SESSION_STATES)[number]
/** States in which a session's transcript may still grow. */
export const isCapturing = (state: CaptureSessionState): boolean => state === 'recording' || state === 'processing'

export const CAPTURE_MODES = ['microphone', 'microphone-and-system-audio'] as const
export type CaptureMode = (typeof CAPTURE_MODES)[number]
