// Share link routes: the session's link for members; the meeting for whoever holds the token.
import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import type { AppDeps } from '../../platform/deps.ts'
import { memberOf } from '../../platform/http/guards.ts'
import { problems } from '../../platform/http/problem.ts'
import { TAGS } from '../../platform/http/tags.ts'
import * as schemas from './schemas.ts'
import { commentThroughShare, getShareLink, resolveShare, revokeShareLink, shareTranscriptPage, updateShareLink, viewShare } from './service.ts'

const tags = [TAGS.sessions]
export const SHARE_COMMENTS_PER_MINUTE = 10
const ShareLinkRef = Type.Ref('ShareLink')

export function shareRoutes(base: FastifyInstance, deps: AppDeps) {
  const app = base.withTypeProvider<TypeBoxTypeProvider>()

  app.get('/v1/sessions/:sessionId/share', {
    schema: {
      operationId: 'getSessionShare', tags,
      summary: 'The session\'s share link; the first read (or the first after it expired or was revoked) creates one: `read`, 30 days. With `create=false` it only reads: 204 when there is no live link.',
      params: schemas.SessionParams,
      querystring: schemas.ShareReadQuery,
      response: { 200: ShareLinkRef, 204: Type.Null({ description: 'create=false and the session has no live link' }), ...problems(400, 401, 403, 404, 429) },
    },
    config: { access: 'view' },
  }, async (request, reply) => {
    const { actor, membership } = memberOf(request)
    const link = await getShareLink(deps, membership, actor.accountId, request.params.sessionId, request.query.create !== false)
    return link ?? reply.code(204).send(null)
  })

  app.patch('/v1/sessions/:sessionId/share', {
    schema: {
      operationId: 'updateSessionShare', tags,
      summary: 'Change the link\'s permission (`read` | `comment`) or expiry (`expiresAt`, or `expiresInDays` from now; at most 365 days). The token stays the same.',
      params: schemas.SessionParams,
      body: schemas.UpdateShareBody,
      response: { 200: ShareLinkRef, ...problems(400, 401, 403, 404, 429) },
    },
    config: { access: 'edit' },
  }, (request) => {
    const { actor, membership } = memberOf(request)
    return updateShareLink(deps, membership, actor.accountId, request.params.sessionId, request.body)
  })

  app.delete('/v1/sessions/:sessionId/share', {
    schema: {
      operationId: 'revokeSessionShare', tags,
      summary: 'Revoke the link: its token answers 404 from now on. The next GET …/share issues a new token.',
      params: schemas.SessionParams,
      response: { 200: Type.Object({ revoked: Type.Boolean({ description: 'false when there was no live link' }) }), ...problems(401, 403, 404, 429) },
    },
    config: { access: 'edit' },
  }, (request) => revokeShareLink(deps, memberOf(request).membership, request.params.sessionId))

  app.get('/v1/shares/:shareToken', {
    schema: {
      operationId: 'viewShare', tags,
      summary: 'Public, the token is the permission: the session, the link\'s permission and expiry, comments, speakers and the first page of the transcript. Unknown, revoked and expired tokens all answer 404.',
      params: schemas.TokenParams,
      response: { 200: schemas.ShareView, ...problems(404, 429) },
    },
    config: { access: 'public' },
  }, (request) => viewShare(deps, request.params.shareToken))

  app.post('/v1/shares/:shareToken/comments', {
    schema: {
      operationId: 'commentThroughShare', tags,
      summary: 'Public, with a `comment` link only (403 with `read`): a comment on one of the shared session\'s work objects; it appears in the object\'s comments. At most 10 per minute per link and client address.',
      params: schemas.TokenParams,
      body: schemas.ShareCommentBody,
      response: { 200: Type.Ref('ShareComment'), ...problems(400, 403, 404, 429) },
    },
    config: {
      access: 'public',
      rateLimit: { max: SHARE_COMMENTS_PER_MINUTE, timeWindow: 60_000, keyGenerator: (request) => `share:${(request.params as { shareToken: string }).shareToken}:${request.ip}` },
    },
  }, (request) => commentThroughShare(deps, request.params.shareToken, request.body))

  app.get('/v1/shares/:shareToken/transcript', {
    schema: {
      operationId: 'viewShareTranscript', tags,
      summary: 'Public: the next pages of the shared transcript (`cursor` from the previous page).',
      params: schemas.TokenParams,
      querystring: schemas.TranscriptQuery,
      response: { 200: schemas.ShareTranscriptPage, ...problems(400, 404, 429) },
    },
    config: { access: 'public' },
  }, async (request) => {
    const { session } = await resolveShare(deps, request.params.shareToken)
    return shareTranscriptPage(deps, session.id, request.query.cursor)
  })
}
