// TypeBox schemas of what follows the meeting in a work set: clarify items, relations, the
// takeover summary, and PATCH /v1/sessions/{id}/workset (its union body and its answer).
import { Type, type Static } from 'typebox'
import { literals } from './schemas.ts'
import { CLARIFICATION_STATUSES, RELATION_STATUSES, RELATION_TYPES, TAKEOVER_STATES } from '../../domain/vocabulary.ts'

const Timestamp = Type.String({ format: 'date-time' })
const Id = Type.String({ minLength: 1, maxLength: 80 })
const IdempotencyKey = Type.String({ minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$', description: 'Client-chosen; the same key on the same work set replays the first answer and never applies twice.' })

export const Clarification = Type.Object({
  id: Type.String(),
  workSetId: Type.String(),
  kind: Type.String({ description: '`missing-owner`, `contradiction` or `ambiguous-reference`.' }),
  question: Type.String(),
  workObjectIds: Type.Array(Type.String()),
  sourceSegmentIds: Type.Array(Type.String()),
  status: literals(CLARIFICATION_STATUSES, {
    description: '`obsolete`: the rest of the meeting answered it (e.g. an owner was named later).',
  }),
  answer: Type.Optional(Type.String()),
  resolvedById: Type.Optional(Type.String()),
  resolvedAt: Type.Optional(Timestamp),
  createdAt: Timestamp,
  updatedAt: Timestamp,
}, { $id: 'WorkClarification' })

export const Relation = Type.Object({
  id: Type.String(),
  workSetId: Type.String(),
  type: literals(RELATION_TYPES),
  fromWorkObjectId: Type.String(),
  toWorkObjectId: Type.String(),
  confidence: Type.Number(),
  status: literals(RELATION_STATUSES),
  decidedById: Type.Optional(Type.String()),
  decidedAt: Type.Optional(Timestamp),
  createdAt: Timestamp,
  updatedAt: Timestamp,
}, { $id: 'WorkRelation' })

const BlockItem = Type.Object({
  text: Type.String(),
  workObjectId: Type.Optional(Type.String()),
  clarificationId: Type.Optional(Type.String()),
  ownerId: Type.Optional(Type.String()),
  ownerName: Type.Optional(Type.String()),
  dueDate: Type.Optional(Type.String()),
  stage: Type.Optional(Type.String()),
  responsibility: Type.Optional(Type.String()),
  proposed: Type.Optional(Type.Boolean({ description: 'Still an AI proposal nobody accepted.' })),
  sourceSegmentIds: Type.Array(Type.String()),
})

export const TakeoverSummary = Type.Object({
  id: Type.String(),
  workSetId: Type.String(),
  workSetRevision: Type.Integer({ description: 'The work set revision it was derived from; it is never rewritten.' }),
  generatedBy: literals(['extractive', 'grounded-ai'] as const),
  actionItems: Type.Integer(),
  headline: Type.String(),
  brief: Type.Optional(Type.Object({
    points: Type.Array(Type.Object({ text: Type.String(), workObjectIds: Type.Array(Type.String()) })),
  }, { description: 'grounded-ai only: the model\'s points, each citing the work objects it rests on.' })),
  blocks: Type.Array(Type.Object({
    type: literals(['actions', 'decisions', 'open-questions', 'outcomes', 'references', 'clarifications'] as const),
    title: Type.String(),
    items: Type.Array(BlockItem),
  })),
  createdAt: Timestamp,
}, { $id: 'TakeoverSummary' })

export const TakeoverFailure = Type.Object({ code: Type.String(), detail: Type.String(), at: Timestamp })

const ClarifyResolve = Type.Object({
  action: Type.Literal('clarify.resolve'),
  clarifyId: Id,
  resolution: literals(['confirmed', 'deferred', 'dismissed'] as const),
  answer: Type.String({ maxLength: 2000, description: 'The person\'s answer (who owns it, which decision stands…); non-blank to confirm.' }),
  ownerId: Type.Optional(Id),
  idempotencyKey: Type.Optional(IdempotencyKey),
}, { additionalProperties: false })

const KeyedAction = Type.Object({
  action: literals(['takeover.retry', 'takeover.refresh'] as const),
  idempotencyKey: IdempotencyKey,
}, { additionalProperties: false })

const RelationAction = Type.Object({
  action: literals(['relation.confirm', 'relation.reject'] as const),
  relationId: Id,
  idempotencyKey: IdempotencyKey,
}, { additionalProperties: false })

export const WorkSetPatchBody = Type.Union([ClarifyResolve, KeyedAction, RelationAction], {
  description: '`clarify.resolve` (clarifyId, resolution, answer; ownerId or an answer naming one member assigns a missing owner); '
    + '`takeover.retry` / `takeover.refresh` (derive the takeover summary again at the current revision); '
    + '`relation.confirm` / `relation.reject` (relationId). A repeated idempotencyKey replays the first answer.',
})
export type WorkSetPatchInput = Static<typeof WorkSetPatchBody>

export const TakeoverResponse = Type.Object({
  workSetId: Type.String(),
  sessionId: Type.String(),
  revision: Type.Integer({ description: 'The work set\'s revision after the action.' }),
  takeoverState: literals(TAKEOVER_STATES),
  takeoverSummary: Type.Optional(Type.Ref('TakeoverSummary')),
  takeoverFailure: Type.Optional(TakeoverFailure),
  retry: Type.Optional(Type.Object({ action: Type.Literal('takeover.retry') }, { description: 'Present when takeoverState is failed.' })),
  clarification: Type.Optional(Type.Ref('WorkClarification')),
  relation: Type.Optional(Type.Ref('WorkRelation')),
  replayed: Type.Boolean({ description: 'True when the idempotencyKey was seen before and this is the first answer again.' }),
})

export const followupSchemas = [Clarification, Relation, TakeoverSummary]
