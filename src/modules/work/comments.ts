// Comments on work objects. Members comment whatever their content permission (view members
// too); a comment made through a share link has no account, only the share and a display name.
// Only the author edits (guarded by expectedUpdatedAt); the author or a manager deletes.
import type { AppDeps } from '../../platform/deps.ts'
import { isManager } from '../../platform/auth/policy.ts'
import { AppError, notFound } from '../../platform/http/errors.ts'
import { newId, nowIso } from '../../platform/ids.ts'
import type { Executor } from '../../platform/realtime/types.ts'
import * as present from './presenter.ts'
import { nextTimestamp, recordChange } from './record.ts'
import * as repo from './repo.ts'
import type { EditCommentInput } from './schemas.ts'
import { lockObjectOf, objectOf, type Caller } from './service.ts'

export type CommentAuthor = { accountId: string } | { shareId: string; displayName: string }

/**
 * Adds a comment to a work object in `executor` and records it (activity, `workobject.comment`
 * event, notifications to the owner, the reviewer and earlier commenters). `sessionId`, when
 * given, must be the object's session (a share link's comments stay on its session): 404 otherwise.
 */
export async function addComment(deps: AppDeps, executor: Executor, input: {
  workObjectId: string; body: string; author: CommentAuthor; sessionId?: string
}) {
  const body = input.body.trim()
  if (body === '') throw new AppError('validation_failed', 'body must not be blank', { errors: [{ field: 'body', code: 'minLength', message: 'body must not be blank' }] })
  const run = async (trx: Executor) => {
    const object = await repo.lockObject(trx, deps.database.dialect, input.workObjectId)
    if (!object || (input.sessionId !== undefined && object.session_id !== input.sessionId)) return notFound('work object', input.workObjectId)
    const accountId = 'accountId' in input.author ? input.author.accountId : null
    const now = nowIso()
    const row: repo.CommentRow = {
      id: newId('cmt'), workspace_id: object.workspace_id, work_object_id: object.id, session_id: object.session_id,
      author_account_id: accountId, share_id: 'shareId' in input.author ? input.author.shareId : null,
      author_name: accountId ? await repo.accountName(trx, accountId) : (input.author as { displayName: string }).displayName,
      body, created_at: now, updated_at: now,
    }
    const commenters = await repo.commenterIds(trx, object.id)
    await repo.insertComment(trx, row)
    const comment = present.presentComment(row)
    await recordChange(deps, trx, {
      object, actorId: accountId, event: 'workobject.comment', data: { action: 'created', comment },
      activity: [{ verb: 'commented', newValue: row.id }],
      notify: [object.owner_account_id, object.reviewer_account_id, ...commenters]
        .map((recipient) => ({ accountId: recipient, kind: 'comment.created', data: { commentId: row.id, authorName: row.author_name } })),
    })
    return comment
  }
  return executor.isTransaction ? run(executor) : deps.database.db.transaction().execute(run)
}

export async function listComments(deps: AppDeps, caller: Caller, workObjectId: string) {
  const object = await objectOf(deps.database.db, caller, workObjectId)
  return (await repo.listComments(deps.database.db, object.id)).map(present.presentComment)
}

/** Comments on the session's work objects, oldest first (for the share view). */
/** The session's work objects as they stand (pending proposals included, rejected ones not): the share view. */
export async function listSessionWorkObjects(deps: AppDeps, sessionId: string) {
  const set = await repo.findWorkSetOfSession(deps.database.db, sessionId)
  return set ? (await repo.listSetObjects(deps.database.db, set.id)).map(present.presentWorkObject) : []
}

export async function listSessionComments(deps: AppDeps, sessionId: string) {
  return (await repo.listSessionComments(deps.database.db, sessionId)).map(present.presentComment)
}

export async function createComment(deps: AppDeps, caller: Caller, workObjectId: string, body: string) {
  await objectOf(deps.database.db, caller, workObjectId)
  return addComment(deps, deps.database.db, { workObjectId, body, author: { accountId: caller.actor.accountId } })
}

async function commentOf(deps: AppDeps, trx: Executor, caller: Caller, workObjectId: string, commentId: string) {
  const object = await lockObjectOf(deps, trx, caller, workObjectId)
  const comment = await repo.lockComment(trx, deps.database.dialect, object.id, commentId) ?? notFound('comment', commentId)
  return { object, comment }
}

export async function editComment(deps: AppDeps, caller: Caller, workObjectId: string, commentId: string, input: EditCommentInput) {
  const body = input.body.trim()
  if (body === '') throw new AppError('validation_failed', 'body must not be blank', { errors: [{ field: 'body', code: 'minLength', message: 'body must not be blank' }] })
  return deps.database.db.transaction().execute(async (trx) => {
    const { object, comment } = await commentOf(deps, trx, caller, workObjectId, commentId)
    if (comment.author_account_id !== caller.actor.accountId) throw new AppError('forbidden', 'Only the author edits a comment.')
    const expected = new Date(input.expectedUpdatedAt).toISOString()
    const updated = expected === comment.updated_at
      ? await repo.updateCommentIf(trx, comment.id, comment.updated_at, { body, updated_at: nextTimestamp(comment.updated_at) })
      : undefined
    if (!updated) {
      throw new AppError('stale_timestamp', 'The comment changed since expectedUpdatedAt; re-read it and retry.', { extra: { currentUpdatedAt: comment.updated_at } })
    }
    const presented = present.presentComment(updated)
    await recordChange(deps, trx, {
      object, actorId: caller.actor.accountId, event: 'workobject.comment', data: { action: 'updated', comment: presented },
      activity: [{ verb: 'comment.edited', oldValue: comment.body, newValue: body }],
    })
    return presented
  })
}

export async function deleteComment(deps: AppDeps, caller: Caller, workObjectId: string, commentId: string) {
  return deps.database.db.transaction().execute(async (trx) => {
    const { object, comment } = await commentOf(deps, trx, caller, workObjectId, commentId)
    if (comment.author_account_id !== caller.actor.accountId && !isManager(caller.membership)) {
      throw new AppError('forbidden', 'Only the author or a manager deletes a comment.')
    }
    await repo.deleteComment(trx, comment.id)
    await recordChange(deps, trx, {
      object, actorId: caller.actor.accountId, event: 'workobject.comment', data: { action: 'deleted', commentId: comment.id },
      activity: [{ verb: 'comment.deleted', oldValue: comment.body }],
    })
    return { deleted: true as const, commentId: comment.id }
  })
}
