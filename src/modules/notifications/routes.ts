// Notification routes: the caller's own notifications in the active workspace.
import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import type { AppDeps } from '../../platform/deps.ts'
import { memberOf } from '../../platform/http/guards.ts'
import { problems } from '../../platform/http/problem.ts'
import { TAGS } from '../../platform/http/tags.ts'
import * as schemas from './schemas.ts'
import { runSocket, socketMember } from '../../platform/realtime/socket.ts'
import { inboxStream, listNotifications, markNotificationsRead } from './service.ts'

const tags = [TAGS.workspace]

export function notificationRoutes(base: FastifyInstance, deps: AppDeps) {
  const app = base.withTypeProvider<TypeBoxTypeProvider>()

  app.get('/v1/collaboration/notifications', {
    schema: {
      operationId: 'listNotifications', tags,
      summary: 'The caller\'s notifications in the active workspace, newest first, with the unread count.',
      querystring: schemas.NotificationsQuery,
      response: { 200: schemas.NotificationList, ...problems(400, 401, 403, 429) },
    },
    config: { access: 'view' },
  }, (request) => listNotifications(deps, memberOf(request), request.query))

  // Read state is the caller's own, not workspace content: view members mark theirs read too.
  app.patch('/v1/collaboration/notifications', {
    schema: {
      operationId: 'markNotificationsRead', tags,
      summary: 'Mark all (`{all: true}`) or some (`{notificationIds}`) of the caller\'s notifications read.',
      body: schemas.MarkReadBody,
      response: { 200: schemas.MarkReadResult, ...problems(400, 401, 403, 429) },
    },
    config: { access: 'view' },
  }, (request) => markNotificationsRead(deps, memberOf(request), request.body))

  // The recipient's realtime inbox (extension): `notification.created` for each notification as it
  // commits, with the conversation channel's guarantees (seq, replay after `afterSeq`, every node).
  // Authentication failures close the socket with 1008, like the conversation channel.
  const trusted = new Set([deps.config.publicUrl.origin, ...deps.config.trustedOrigins])
  app.get('/v1/collaboration/notifications/events', {
    websocket: true,
    schema: {
      operationId: 'streamNotifications', tags,
      summary: 'WebSocket (101): the caller\'s notifications in the active workspace as `notification.created` events, replayed after `afterSeq`, then live. See docs/realtime.md.',
      querystring: Type.Object({ afterSeq: Type.Optional(Type.Integer({ minimum: 0, default: 0 })) }),
      response: { 101: { description: 'Switching Protocols: the notification inbox.' }, ...problems(400, 401, 426) },
    },
    config: { access: 'socket' },
  }, async (socket, request) => {
    const actor = socketMember(socket, request.headers.origin, trusted, request.actor)
    if (!actor) return
    await runSocket(socket, deps.realtimeHub, {
      conversationId: inboxStream(actor.membership.workspaceId, actor.accountId), afterSeq: request.query.afterSeq ?? 0, channel: 'all', handlers: {},
    })
  })
}
