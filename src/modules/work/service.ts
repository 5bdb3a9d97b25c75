// Work object use cases: capture, read, edit content (new revision), move the stage, change the
// responsibility, assign; the work set detail. Each write locks the object's row, checks its guard
// in the same transaction and records the change (record.ts).
import type { AppDeps } from '../../platform/deps.ts'
import type { Membership } from '../../platform/auth/actor.ts'
import { AppError, badRequest, notFound } from '../../platform/http/errors.ts'
import { newId, nowIso } from '../../platform/ids.ts'
import type { Executor } from '../../platform/realtime/types.ts'
import type { WorkKind } from '../../platform/db/tables.ts'
import { findProject } from '../projects/index.ts'
import { findConversationInWorkspace, findSessionRow, type SessionRow } from '../sessions/index.ts'
import { findSessionSegments } from '../transcripts/index.ts'
import { contentHash, normalizeContent, type WorkContent } from './content.ts'
import { canMoveStage, isOwnerOrManager, resolveSemantics } from './policy.ts'
import * as present from './presenter.ts'
import { inEditTransaction } from './edit-batch.ts'
import { nextTimestamp, recordChange, sameInstant } from './record.ts'
import * as repo from './repo.ts'
import { listSetClarifications, listSetRelations, presentClarification, presentRelation } from './followups.ts'
import { isRealAction, latestTakeover, listedTakeoverState, takeoverView } from './takeover.ts'
import type { AssignmentInput, CreateWorkObjectInput, EditWorkObjectInput, ResponsibilityInput, StageInput } from './schemas.ts'

export type Caller = { actor: { accountId: string }; membership: Membership }
const person = (caller: Caller) => ({ accountId: caller.actor.accountId, membership: caller.membership })

// ---- shared helpers ----

export async function objectOf(db: Executor, caller: Caller, workObjectId: string) {
  return await repo.findObject(db, caller.membership.workspaceId, workObjectId) ?? notFound('work object', workObjectId)
}

/** The object, locked for the rest of the transaction, or a 404. */
export async function lockObjectOf(deps: AppDeps, trx: Executor, caller: Caller, workObjectId: string) {
  return await repo.lockObject(trx, deps.database.dialect, workObjectId, caller.membership.workspaceId) ?? notFound('work object', workObjectId)
}

export function refuseWhileProposed(object: repo.WorkObjectRow) {
  if (object.proposal_state === 'pending') {
    throw new AppError('proposal_pending', 'This work object is an AI proposal: accept or reject it first.', { extra: { revisionId: object.current_revision_id } })
  }
  if (object.proposal_state === 'rejected') throw new AppError('transition_not_allowed', 'This proposal was rejected.', { extra: { proposalState: 'rejected' } })
}

export const staleRevision = (object: repo.WorkObjectRow, detail = 'The work object has a newer revision; re-read it and retry.') =>
  new AppError('stale_revision', detail, { extra: { currentRevisionId: object.current_revision_id, currentRevisionHash: object.revision_hash } })

/** The session's work set, created with its first work object (two first captures at once keep one). */
export async function ensureWorkSet(trx: Executor, session: SessionRow) {
  const existing = await repo.findWorkSetOfSession(trx, session.id)
  if (existing) return existing
  const now = nowIso()
  await repo.insertWorkSet(trx, {
    id: newId('wst'), workspace_id: session.workspace_id, session_id: session.id, conversation_id: session.conversation_id,
    // A set first made after the meeting: its takeover found nothing (record.ts derives it again).
    revision: 0, takeover_state: session.state === 'recording' || session.state === 'processing' ? null : 'empty', needs_rebuild: 0, created_at: now, updated_at: now,
  })
  return (await repo.findWorkSetOfSession(trx, session.id))!
}

export type NewObject = {
  kind: WorkKind; family: string; semanticType: string; content: WorkContent; sourceSegmentIds: string[]
  nextStep: string | null; targetProjectId: string | null; origin: 'person' | 'ai'; confidence: number | null; createdBy: string | null
  ownerHint?: string | null; ownerHintAccountId?: string | null; dueDate?: string | null
}

/** Inserts an object with its first revision and its first (open) review task, and records it. */
export async function insertNewObject(deps: AppDeps, trx: Executor, session: SessionRow, input: NewObject) {
  const set = await ensureWorkSet(trx, session)
  const now = nowIso()
  const id = newId('wo')
  const revisionId = newId('rev')
  const reviewId = newId('rvw')
  const hash = contentHash(input.content)
  await repo.insertObject(trx, {
    id, workspace_id: session.workspace_id, work_set_id: set.id, session_id: session.id, conversation_id: session.conversation_id,
    kind: input.kind, family: input.family, semantic_type: input.semanticType, title: input.content.title, summary: input.content.summary,
    next_step: input.nextStep, target_project_id: input.targetProjectId, source_segment_ids: JSON.stringify(input.sourceSegmentIds),
    origin: input.origin, confidence: input.confidence, proposal_state: input.origin === 'ai' ? 'pending' : null, pending_revision_id: null,
    owner_hint: input.ownerHint ?? null, owner_hint_account_id: input.ownerHintAccountId ?? null, due_date: input.dueDate ?? null,
    current_revision_id: revisionId, revision_hash: hash, revision_number: 1, stage: 'captured',
    responsibility_state: 'todo', blocked_reason: null, responsibility_updated_at: now, owner_account_id: null, reviewer_account_id: null,
    current_review_id: reviewId, created_by: input.createdBy, created_at: now, updated_at: now,
  })
  await repo.insertRevision(trx, {
    id: revisionId, work_object_id: id, work_set_id: set.id, number: 1, hash, title: input.content.title, summary: input.content.summary,
    author_kind: input.origin, author_account_id: input.createdBy, base_revision_id: null,
    proposal_state: input.origin === 'ai' ? 'pending' : null, confidence: input.confidence, created_at: now,
  })
  await repo.insertReview(trx, {
    id: reviewId, workspace_id: session.workspace_id, work_object_id: id, work_set_id: set.id, state: 'open', reviewer_account_id: null,
    revision_id: null, requested_by: null, requested_at: null, decision: null, decision_note: null, decided_by: null, decided_at: null,
    created_at: now, updated_at: now,
  })
  const object = (await repo.findObject(trx, session.workspace_id, id))!
  await recordChange(deps, trx, {
    object, actorId: input.createdBy, event: 'workobject.created',
    activity: [{ verb: input.origin === 'ai' ? 'proposed' : 'created', newValue: input.kind }],
  })
  return object
}

/** Segment ids must be of this session: each unknown one is named in the 400. */
export async function checkSegments(db: Executor, sessionId: string, ids: string[]) {
  const unique = [...new Set(ids)]
  const found = new Set((await findSessionSegments(db, sessionId, unique)).map((segment) => segment.id))
  const missing = unique.filter((id) => !found.has(id))
  if (missing.length > 0) {
    throw new AppError('validation_failed', 'sourceSegmentIds must name segments of this session.', {
      errors: missing.map((id) => ({ field: 'sourceSegmentIds', code: 'unknown_segment', message: `no segment ${id} in this session` })),
    })
  }
  return unique
}

const untitled = (kind: WorkKind) => `New ${kind}`

// ---- capture and read ----

export async function createWorkObject(deps: AppDeps, caller: Caller, sessionId: string, input: CreateWorkObjectInput) {
  const { workspaceId } = caller.membership
  const { db } = deps.database
  const semantics = resolveSemantics(input.kind, input.family, input.semanticType)
  if ('error' in semantics) throw badRequest(semantics.error, 'kind_mismatch', `${semantics.error} does not belong to kind ${input.kind}`)
  const session = await findSessionRow(db, workspaceId, sessionId) ?? notFound('session', sessionId)
  const sourceSegmentIds = await checkSegments(db, session.id, input.sourceSegmentIds ?? [])
  const targetProjectId = input.targetProjectId ?? null
  if (targetProjectId !== null && !await findProject(db, workspaceId, targetProjectId)) {
    throw badRequest('targetProjectId', 'unknown_project', 'targetProjectId must be a project of this workspace')
  }
  const summary = input.summary ?? null
  const content = normalizeContent({ title: input.title ?? summary?.split('\n')[0]?.slice(0, 200) ?? untitled(input.kind), summary })
  const object = await db.transaction().execute((trx) => insertNewObject(deps, trx, session, {
    kind: input.kind, family: semantics.family, semanticType: semantics.semanticType, content, sourceSegmentIds,
    nextStep: input.nextStep ?? null, targetProjectId, origin: 'person', confidence: null, createdBy: caller.actor.accountId,
  }))
  return present.presentWorkObject(object)
}

export async function getWorkObject(deps: AppDeps, caller: Caller, workObjectId: string) {
  return present.presentWorkObject(await objectOf(deps.database.db, caller, workObjectId))
}

export async function listRevisions(deps: AppDeps, caller: Caller, workObjectId: string) {
  const object = await objectOf(deps.database.db, caller, workObjectId)
  const rows = await repo.listRevisions(deps.database.db, object.id)
  return { workObjectId: object.id, revisions: rows.map(present.presentRevision) }
}

export async function listActivity(deps: AppDeps, caller: Caller, workObjectId: string) {
  const object = await objectOf(deps.database.db, caller, workObjectId)
  return (await repo.listActivity(deps.database.db, object.id)).map(present.presentActivity)
}

export async function getWorkSetDetail(deps: AppDeps, caller: Caller, workSetId: string) {
  const db = deps.database.db
  const set = await repo.findWorkSet(db, caller.membership.workspaceId, workSetId) ?? notFound('work set', workSetId)
  const [objects, revisions, reviews, clarifications, relations, latest, external] = await Promise.all([
    repo.listSetObjects(db, set.id), repo.listSetRevisions(db, set.id), repo.listSetReviews(db, set.id),
    listSetClarifications(db, set.id), listSetRelations(db, set.id), latestTakeover(db, set.id),
    // Actions and executions belong to the integrations module, which fills this port when registered.
    deps.ports.worksetActions?.(db, set.id) ?? { actions: [], executions: [] },
  ])
  const visible = new Set(objects.map((object) => object.id))
  const takeover = takeoverView(set, latest, objects.filter(isRealAction).length)
  return {
    workSet: present.presentWorkSet(set, takeover.takeoverState),
    workObjects: objects.map(present.presentWorkObject),
    revisions: revisions.filter((row) => visible.has(row.work_object_id)).map(present.presentRevision),
    reviewTasks: reviews.filter((row) => visible.has(row.work_object_id)).map(present.presentReview),
    actions: external.actions, executions: external.executions,
    needsRebuild: set.needs_rebuild === 1,
    ...takeover,
    clarifications: clarifications.map(presentClarification),
    relations: relations.filter((row) => visible.has(row.from_object_id) && visible.has(row.to_object_id)).map(presentRelation),
  }
}

export async function listConversationWorkSets(deps: AppDeps, caller: Caller, conversationId: string) {
  const db = deps.database.db
  const conversation = await findConversationInWorkspace(db, caller.membership.workspaceId, conversationId)
  if (!conversation) notFound('conversation', conversationId)
  const sets = await repo.listConversationWorkSets(db, caller.membership.workspaceId, conversationId)
  const actions = await repo.countRealActions(db, sets.map((set) => set.id))
  return { conversationId, workSets: sets.map((set) => present.presentWorkSet(set, listedTakeoverState(set, actions.get(set.id) ?? 0))) }
}

// ---- changes ----

/** The next step an edit asks for (top level or in content; both must agree); undefined keeps it. */
function nextStepOf(input: EditWorkObjectInput): string | null | undefined {
  const { nextStep } = input
  const inContent = input.content.nextStep
  if (nextStep !== undefined && inContent !== undefined && nextStep !== inContent) {
    throw badRequest('content.nextStep', 'conflicting_next_step', 'nextStep and content.nextStep differ: give one of them')
  }
  return nextStep !== undefined ? nextStep : inContent
}

export async function editWorkObject(deps: AppDeps, caller: Caller, workObjectId: string, input: EditWorkObjectInput) {
  const content = normalizeContent(input.content)
  const hash = contentHash(content)
  const row = await inEditTransaction(deps, caller.membership.workspaceId, workObjectId, async (trx) => {
    const current = await lockObjectOf(deps, trx, caller, workObjectId)
    refuseWhileProposed(current)
    if (input.expectedRevisionHash !== current.revision_hash) throw staleRevision(current)
    const dueDate = input.dueDate === undefined ? current.due_date : input.dueDate
    const asked = nextStepOf(input)
    const nextStep = asked === undefined ? current.next_step : asked
    const contentChanged = hash !== current.revision_hash
    if (!contentChanged && dueDate === current.due_date && nextStep === current.next_step) return current
    const now = nowIso()
    let revision: repo.RevisionRow | undefined
    if (contentChanged) {
      const number = await repo.nextRevisionNumber(trx, current.id)
      revision = {
        id: newId('rev'), work_object_id: current.id, work_set_id: current.work_set_id, number, hash, title: content.title, summary: content.summary,
        author_kind: 'person', author_account_id: caller.actor.accountId, base_revision_id: current.current_revision_id,
        proposal_state: null, confidence: null, created_at: now,
      }
      await repo.insertRevision(trx, revision)
    }
    const updated = await repo.updateObject(trx, current.id, {
      ...(revision ? { title: content.title, summary: content.summary, current_revision_id: revision.id, revision_hash: hash, revision_number: revision.number } : {}),
      due_date: dueDate, next_step: nextStep, updated_at: nextTimestamp(current.updated_at),
    })
    await recordChange(deps, trx, {
      object: updated, actorId: caller.actor.accountId, event: 'workobject.updated',
      data: revision ? { revision: present.presentRevision(revision) } : {},
      activity: [
        ...(revision && content.title !== current.title ? [{ verb: 'edited', field: 'title', oldValue: current.title, newValue: content.title }] : []),
        ...(revision && content.summary !== current.summary ? [{ verb: 'edited', field: 'summary', oldValue: current.summary, newValue: content.summary }] : []),
        ...(dueDate !== current.due_date ? [{ verb: 'edited', field: 'dueDate', oldValue: current.due_date, newValue: dueDate }] : []),
        ...(nextStep !== current.next_step ? [{ verb: 'edited', field: 'nextStep', oldValue: current.next_step, newValue: nextStep }] : []),
      ],
      notify: [{ accountId: updated.owner_account_id, kind: 'workobject.updated', data: { revisionId: updated.current_revision_id } }],
    })
    return updated
  })
  return present.presentWorkObject(row)
}

export async function moveStage(deps: AppDeps, caller: Caller, workObjectId: string, input: StageInput) {
  return inEditTransaction(deps, caller.membership.workspaceId, workObjectId, async (trx) => {
    const current = await lockObjectOf(deps, trx, caller, workObjectId)
    refuseWhileProposed(current)
    if (current.stage !== input.fromStage) {
      throw new AppError('stage_conflict', `The work object is ${current.stage}, not ${input.fromStage}.`, { extra: { currentStage: current.stage } })
    }
    if (!canMoveStage(current.stage, input.toStage)) {
      throw new AppError('transition_not_allowed', `A stage moves one step forward or any number back; ${current.stage} → ${input.toStage} is neither.`, {
        extra: { currentStage: current.stage },
      })
    }
    if (input.toStage === 'accepted' && !await repo.hasApprovedReview(trx, current.id, current.current_revision_id)) {
      throw new AppError('transition_not_allowed', 'Entering accepted needs an approved review of the current revision.', {
        extra: { currentStage: current.stage, currentRevisionId: current.current_revision_id, reason: 'review_required' },
      })
    }
    const at = nextTimestamp(current.updated_at)
    const updated = await repo.updateObject(trx, current.id, { stage: input.toStage, updated_at: at })
    const transition = {
      workObjectId: current.id, fromStage: current.stage, toStage: input.toStage,
      ...(input.note ? { note: input.note } : {}), actorId: caller.actor.accountId, at,
    }
    await recordChange(deps, trx, {
      object: updated, actorId: caller.actor.accountId, event: 'workobject.stage', data: { transition },
      activity: [{ verb: 'moved', field: 'stage', oldValue: current.stage, newValue: input.toStage, note: input.note ?? null }],
      notify: [{ accountId: updated.owner_account_id, kind: 'workobject.stage', data: { fromStage: current.stage, toStage: input.toStage } }],
    })
    return { workObject: present.presentWorkObject(updated), transition }
  })
}

export async function changeResponsibility(deps: AppDeps, caller: Caller, workObjectId: string, input: ResponsibilityInput) {
  const reason = input.blockedReason?.trim()
  if (input.state === 'blocked' && !reason) throw badRequest('blockedReason', 'required', 'blockedReason is required when the state is blocked')
  const row = await inEditTransaction(deps, caller.membership.workspaceId, workObjectId, async (trx) => {
    const current = await lockObjectOf(deps, trx, caller, workObjectId)
    refuseWhileProposed(current)
    if (!isOwnerOrManager(person(caller), current)) throw new AppError('forbidden', 'Only the responsible person or a manager changes the responsibility state.')
    if (!sameInstant(input.expectedResponsibilityUpdatedAt, current.responsibility_updated_at)) {
      throw new AppError('stale_timestamp', 'The responsibility changed since expectedResponsibilityUpdatedAt; re-read it and retry.', {
        extra: { currentResponsibilityUpdatedAt: current.responsibility_updated_at, currentState: current.responsibility_state },
      })
    }
    const blockedReason = input.state === 'blocked' ? reason! : null
    const at = nextTimestamp(current.responsibility_updated_at)
    const updated = await repo.updateObject(trx, current.id, {
      responsibility_state: input.state, blocked_reason: blockedReason, responsibility_updated_at: at, updated_at: nextTimestamp(current.updated_at),
    })
    await recordChange(deps, trx, {
      object: updated, actorId: caller.actor.accountId, event: 'workobject.responsibility',
      activity: [{ verb: 'responsibility', field: 'responsibility', oldValue: current.responsibility_state, newValue: input.state, note: blockedReason }],
      notify: [{ accountId: updated.owner_account_id, kind: 'workobject.responsibility', data: { state: input.state } }],
    })
    return updated
  })
  return present.presentWorkObject(row)
}

/** The account may be given work: a member of the workspace with edit permission (400 otherwise). */
export async function requireEditMember(db: Executor, workspaceId: string, accountId: string, field: string) {
  const member = await repo.memberPermission(db, workspaceId, accountId)
  if (!member) throw badRequest(field, 'not_a_member', `${field} must be a member of this workspace`)
  if (member.content_permission !== 'edit') throw badRequest(field, 'view_only', `${field} names a member with view permission, who cannot take work`)
}

export async function changeAssignment(deps: AppDeps, caller: Caller, workObjectId: string, input: AssignmentInput) {
  const me = caller.actor.accountId
  if (input.action === 'assign' && !input.userId) throw badRequest('userId', 'required', 'userId is required to assign')
  const row = await inEditTransaction(deps, caller.membership.workspaceId, workObjectId, async (trx) => {
    const current = await lockObjectOf(deps, trx, caller, workObjectId)
    refuseWhileProposed(current)
    const previous = current.owner_account_id
    let owner: string | null
    if (input.action === 'claim') {
      if (previous === me) return current
      if (previous !== null) throw new AppError('transition_not_allowed', 'Someone else is responsible for this work object.', { extra: { ownerId: previous } })
      owner = me
    } else {
      if (!isOwnerOrManager(person(caller), current)) throw new AppError('forbidden', 'Only the responsible person or a manager assigns or releases.')
      if (input.action === 'assign') {
        await requireEditMember(trx, caller.membership.workspaceId, input.userId!, 'userId')
        owner = input.userId!
      } else {
        owner = null
      }
      if (owner === previous) return current
    }
    const updated = await repo.updateObject(trx, current.id, { owner_account_id: owner, updated_at: nextTimestamp(current.updated_at) })
    await recordChange(deps, trx, {
      object: updated, actorId: me, event: 'workobject.assigned', data: { action: input.action },
      activity: [{ verb: input.action, field: 'owner', oldValue: previous, newValue: owner }],
      notify: [
        { accountId: owner, kind: 'workobject.assigned' },
        { accountId: previous, kind: 'workobject.unassigned' },
      ],
    })
    return updated
  })
  return present.presentWorkObject(row)
}
