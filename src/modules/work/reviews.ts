// Review tasks (DESIGN §7). Each work object always has one current task (WorkObject.reviewId),
// created with the object. Designating a reviewer (claim | assign | release) and formally
// requesting review are separate; a request pins the task to the current revision. A decision
// closes the task (approved | changes-requested | returned | taken-over) and opens the object's
// next task — the reviewer carries over, except after returned (the reviewer handed it back) and
// taken-over (the reviewer became the owner); `reassigned` keeps the task requested for another reviewer.
import type { AppDeps } from '../../platform/deps.ts'
import { isManager } from '../../platform/auth/policy.ts'
import { AppError, badRequest, notFound } from '../../platform/http/errors.ts'
import { newId, nowIso } from '../../platform/ids.ts'
import type { Executor } from '../../platform/realtime/types.ts'
import { isOwnerOrManager, mayAssignReviewer, mayDecideReview, mayReleaseReviewer } from './policy.ts'
import * as present from './presenter.ts'
import { nextTimestamp, recordChange, type Recipient } from './record.ts'
import * as repo from './repo.ts'
import type { AssignmentInput, ReviewDecisionInput } from './schemas.ts'
import { lockObjectOf, refuseWhileProposed, requireEditMember, staleRevision, type Caller } from './service.ts'

const person = (caller: Caller) => ({ accountId: caller.actor.accountId, membership: caller.membership })

/** Locks the task's object, then the task (the order every work write uses). */
async function lockReviewAndObject(deps: AppDeps, trx: Executor, caller: Caller, reviewId: string) {
  const { workspaceId } = caller.membership
  const peek = await trx.selectFrom('review_tasks').select('work_object_id').where('id', '=', reviewId).where('workspace_id', '=', workspaceId).executeTakeFirst()
  if (!peek) return notFound('review', reviewId)
  const object = await lockObjectOf(deps, trx, caller, peek.work_object_id)
  const review = (await repo.lockReview(trx, deps.database.dialect, reviewId, workspaceId))!
  return { object, review }
}

const isClosed = (review: repo.ReviewRow) => review.state !== 'open' && review.state !== 'requested'

function refuseClosed(review: repo.ReviewRow) {
  if (isClosed(review)) {
    throw new AppError('transition_not_allowed', `This review was decided (${review.state}); use the work object's current reviewId.`, { extra: { state: review.state } })
  }
}

async function finish(deps: AppDeps, trx: Executor, caller: Caller, args: {
  object: repo.WorkObjectRow; review: repo.ReviewRow; objectChanges?: Parameters<typeof repo.updateObject>[2]
  activity: { verb: string; field?: string; oldValue?: string | null; newValue?: string | null; note?: string | null }[]
  notify: Recipient[]
}) {
  const object = await repo.updateObject(trx, args.object.id, { ...args.objectChanges, updated_at: nextTimestamp(args.object.updated_at) })
  await recordChange(deps, trx, {
    object, actorId: caller.actor.accountId, event: 'workobject.review', data: { review: present.presentReview(args.review) },
    activity: args.activity, notify: args.notify,
  })
  return { review: present.presentReview(args.review), workObject: present.presentWorkObject(object) }
}

export async function changeReviewAssignment(deps: AppDeps, caller: Caller, reviewId: string, input: AssignmentInput) {
  const me = caller.actor.accountId
  if (input.action === 'assign' && !input.userId) throw badRequest('userId', 'required', 'userId is required to assign')
  return deps.database.db.transaction().execute(async (trx) => {
    const { object, review } = await lockReviewAndObject(deps, trx, caller, reviewId)
    refuseWhileProposed(object)
    refuseClosed(review)
    const previous = review.reviewer_account_id
    let reviewer: string | null
    if (input.action === 'claim') {
      if (previous !== null && previous !== me) {
        throw new AppError('transition_not_allowed', 'Someone else reviews this work object.', { extra: { reviewerId: previous } })
      }
      reviewer = me
    } else if (input.action === 'assign') {
      if (!mayAssignReviewer(person(caller), object)) throw new AppError('forbidden', 'Only the responsible person or a manager designates a reviewer.')
      await requireEditMember(trx, caller.membership.workspaceId, input.userId!, 'userId')
      reviewer = input.userId!
    } else {
      if (!mayReleaseReviewer(person(caller), object, previous)) throw new AppError('forbidden', 'Only the reviewer, the responsible person or a manager releases a reviewer.')
      reviewer = null
    }
    const updated = reviewer === previous ? review : await repo.updateReview(trx, review.id, { reviewer_account_id: reviewer, updated_at: nextTimestamp(review.updated_at) })
    return finish(deps, trx, caller, {
      object, review: updated, objectChanges: { reviewer_account_id: reviewer },
      activity: [{ verb: `reviewer.${input.action}`, field: 'reviewer', oldValue: previous, newValue: reviewer }],
      notify: reviewer === previous ? [] : [
        { accountId: reviewer, kind: 'review.assigned', data: { reviewId: review.id } },
        { accountId: previous, kind: 'review.unassigned', data: { reviewId: review.id } },
      ],
    })
  })
}

export async function requestReview(deps: AppDeps, caller: Caller, reviewId: string, revisionId: string) {
  return deps.database.db.transaction().execute(async (trx) => {
    const { object, review } = await lockReviewAndObject(deps, trx, caller, reviewId)
    if (!isOwnerOrManager(person(caller), object)) throw new AppError('forbidden', 'Only the responsible person or a manager requests a review.')
    refuseWhileProposed(object)
    refuseClosed(review)
    if (revisionId !== object.current_revision_id) throw staleRevision(object, 'Only the current revision can be submitted for review.')
    if (review.reviewer_account_id === null) {
      throw new AppError('transition_not_allowed', 'Designate a reviewer (POST /v1/reviews/{reviewId}/assignment) before requesting review.', { extra: { state: review.state } })
    }
    const now = nowIso()
    const updated = await repo.updateReview(trx, review.id, {
      state: 'requested', revision_id: revisionId, requested_by: caller.actor.accountId, requested_at: now, updated_at: nextTimestamp(review.updated_at),
    })
    return finish(deps, trx, caller, {
      object, review: updated,
      activity: [{ verb: 'review.requested', field: 'review', oldValue: review.state, newValue: 'requested', note: revisionId }],
      notify: [{ accountId: updated.reviewer_account_id, kind: 'review.requested', data: { reviewId: review.id, revisionId } }],
    })
  })
}

export async function decideReview(deps: AppDeps, caller: Caller, reviewId: string, input: ReviewDecisionInput) {
  const me = caller.actor.accountId
  if (input.decision === 'reassigned' && !input.reassignedToUserId) {
    throw badRequest('reassignedToUserId', 'required', 'reassignedToUserId is required to reassign')
  }
  return deps.database.db.transaction().execute(async (trx) => {
    const { object, review } = await lockReviewAndObject(deps, trx, caller, reviewId)
    if (!mayDecideReview(person(caller), review.reviewer_account_id)) throw new AppError('forbidden', 'Only the assigned reviewer or a manager decides a review.')
    if (review.state !== 'requested') {
      throw new AppError('transition_not_allowed', `This review is ${review.state}, not requested.`, { extra: { state: review.state } })
    }
    if (input.revisionId !== review.revision_id || input.revisionId !== object.current_revision_id) {
      throw new AppError('stale_revision', 'The decision names a revision that is not the one under review, or the object changed since; re-read it.', {
        extra: { currentRevisionId: object.current_revision_id, currentRevisionHash: object.revision_hash, requestedRevisionId: review.revision_id },
      })
    }
    const note = input.note ?? null
    const now = nowIso()
    if (input.decision === 'reassigned') {
      const target = input.reassignedToUserId!
      await requireEditMember(trx, caller.membership.workspaceId, target, 'reassignedToUserId')
      const updated = await repo.updateReview(trx, review.id, { reviewer_account_id: target, decision_note: note, updated_at: nextTimestamp(review.updated_at) })
      return finish(deps, trx, caller, {
        object, review: updated, objectChanges: { reviewer_account_id: target },
        activity: [{ verb: 'review.reassigned', field: 'reviewer', oldValue: review.reviewer_account_id, newValue: target, note }],
        notify: [
          { accountId: target, kind: 'review.requested', data: { reviewId: review.id, revisionId: input.revisionId } },
          { accountId: review.reviewer_account_id, kind: 'review.unassigned', data: { reviewId: review.id } },
        ],
      })
    }
    const closed = await repo.updateReview(trx, review.id, {
      state: input.decision, decision: input.decision, decision_note: note, decided_by: me, decided_at: now, updated_at: nextTimestamp(review.updated_at),
    })
    const takenOver = input.decision === 'taken-over'
    const nextReviewer = takenOver || input.decision === 'returned' ? null : review.reviewer_account_id
    const newOwner = takenOver ? (review.reviewer_account_id ?? me) : object.owner_account_id
    const nextId = newId('rvw')
    await repo.insertReview(trx, {
      id: nextId, workspace_id: object.workspace_id, work_object_id: object.id, work_set_id: object.work_set_id, state: 'open',
      reviewer_account_id: nextReviewer, revision_id: null, requested_by: null, requested_at: null, decision: null, decision_note: null,
      decided_by: null, decided_at: null, created_at: now, updated_at: now,
    })
    return finish(deps, trx, caller, {
      object, review: closed,
      objectChanges: { current_review_id: nextId, reviewer_account_id: nextReviewer, owner_account_id: newOwner },
      activity: [
        { verb: 'review.decided', field: 'review', oldValue: 'requested', newValue: input.decision, note },
        ...(takenOver ? [{ verb: 'taken-over', field: 'owner', oldValue: object.owner_account_id, newValue: newOwner }] : []),
      ],
      notify: [
        { accountId: object.owner_account_id, kind: 'review.decided', data: { reviewId: review.id, decision: input.decision } },
        // Whoever asked for the review hears the verdict too (an object without an owner told nobody).
        { accountId: review.requested_by, kind: 'review.decided', data: { reviewId: review.id, decision: input.decision } },
        ...(isManager(caller.membership) ? [{ accountId: review.reviewer_account_id, kind: 'review.decided', data: { reviewId: review.id, decision: input.decision } }] : []),
      ],
    })
  })
}
