// Comment and review routes of the work module.
import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import type { AppDeps } from '../../platform/deps.ts'
import { memberOf } from '../../platform/http/guards.ts'
import { problems } from '../../platform/http/problem.ts'
import { TAGS } from '../../platform/http/tags.ts'
import { createComment, deleteComment, editComment, listComments } from './comments.ts'
import { changeReviewAssignment, decideReview, requestReview } from './reviews.ts'
import * as schemas from './schemas.ts'

const Comment = Type.Ref('WorkComment')

export function collaborationRoutes(base: FastifyInstance, deps: AppDeps) {
  const app = base.withTypeProvider<TypeBoxTypeProvider>()
  const work = [TAGS.work]
  const reviews = [TAGS.reviews]

  app.get('/v1/workobjects/:workObjectId/comments', {
    schema: {
      operationId: 'listWorkObjectComments', tags: work, summary: 'Comments on the object, oldest first, including those made through a share link.',
      params: schemas.WorkObjectParams, response: { 200: Type.Array(Comment), ...problems(401, 403, 404, 429) },
    },
    config: { access: 'view' },
  }, (request) => listComments(deps, memberOf(request), request.params.workObjectId))

  app.post('/v1/workobjects/:workObjectId/comments', {
    schema: {
      operationId: 'createWorkObjectComment', tags: work, summary: 'Comment on the object (extension). View members may comment.',
      params: schemas.WorkObjectParams, body: schemas.CreateCommentBody, response: { 200: Comment, ...problems(400, 401, 403, 404, 429) },
    },
    config: { access: 'view' },
  }, (request) => createComment(deps, memberOf(request), request.params.workObjectId, request.body.body))

  app.patch('/v1/workobjects/:workObjectId/comments/:commentId', {
    schema: {
      operationId: 'editWorkObjectComment', tags: work, summary: 'Edit one\'s own comment, guarded by expectedUpdatedAt (409 stale_timestamp).',
      params: schemas.CommentParams, body: schemas.EditCommentBody, response: { 200: Comment, ...problems(400, 401, 403, 404, 409, 429) },
    },
    config: { access: 'view' },
  }, (request) => editComment(deps, memberOf(request), request.params.workObjectId, request.params.commentId, request.body))

  app.delete('/v1/workobjects/:workObjectId/comments/:commentId', {
    schema: {
      operationId: 'deleteWorkObjectComment', tags: work, summary: 'Delete a comment: its author or a manager (extension).',
      params: schemas.CommentParams,
      response: { 200: Type.Object({ deleted: Type.Literal(true), commentId: Type.String() }), ...problems(401, 403, 404, 429) },
    },
    config: { access: 'view' },
  }, (request) => deleteComment(deps, memberOf(request), request.params.workObjectId, request.params.commentId))

  app.post('/v1/reviews/:reviewId/assignment', {
    schema: {
      operationId: 'changeReviewAssignment', tags: reviews,
      summary: 'Designate the reviewer: claim (an edit member), assign (the responsible person or a manager) or release (the reviewer, the responsible person or a manager).',
      params: schemas.ReviewParams, body: schemas.AssignmentBody, response: { 200: schemas.ReviewResult, ...problems(400, 401, 403, 404, 409, 429) },
    },
    config: { access: 'edit' },
  }, (request) => changeReviewAssignment(deps, memberOf(request), request.params.reviewId, request.body))

  app.post('/v1/reviews/:reviewId/request', {
    schema: {
      operationId: 'requestReview', tags: reviews,
      summary: 'Submit the current revision for review: the responsible person or a manager, with a designated reviewer; a revisionId that is not current answers 409 stale_revision.',
      params: schemas.ReviewParams, body: schemas.ReviewRequestBody, response: { 200: schemas.ReviewResult, ...problems(400, 401, 403, 404, 409, 429) },
    },
    config: { access: 'edit' },
  }, (request) => requestReview(deps, memberOf(request), request.params.reviewId, request.body.revisionId))

  app.post('/v1/reviews/:reviewId/decisions', {
    schema: {
      operationId: 'decideReview', tags: reviews,
      summary: 'Decide a requested review (the assigned reviewer or a manager): approved, changes-requested, returned, taken-over (the reviewer becomes responsible) or reassigned (to reassignedToUserId). A stale revisionId answers 409.',
      params: schemas.ReviewParams, body: schemas.ReviewDecisionBody, response: { 200: schemas.ReviewResult, ...problems(400, 401, 403, 404, 409, 429) },
    },
    config: { access: 'edit' },
  }, (request) => decideReview(deps, memberOf(request), request.params.reviewId, request.body))
}
