// GET /v1/conversations/{conversationId}/events: the realtime channel of a conversation.
// Authentication happens here, not in the HTTP guard, so that failures close the socket with
// 1008 as the interface requires (an HTTP 401 would surface as a failed upgrade).
import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import type { AppDeps } from '../../platform/deps.ts'
import type { Actor } from '../../platform/auth/actor.ts'
import { canEditContent } from '../../platform/auth/policy.ts'
import { problems } from '../../platform/http/problem.ts'
import { TAGS } from '../../platform/http/tags.ts'
import { CLOSE_POLICY, runSocket, socketMember, SocketError, type ClientMessage } from '../../platform/realtime/socket.ts'
import { endSession, findConversationInWorkspace } from '../sessions/index.ts'
import { acceptClientSegment, type ClientSegment } from '../transcripts/index.ts'

const PRESENCE_STATES = ['active', 'idle', 'away']

export function eventsRoute(base: FastifyInstance, deps: AppDeps) {
  const app = base.withTypeProvider<TypeBoxTypeProvider>()
  const trusted = new Set([deps.config.publicUrl.origin, ...deps.config.trustedOrigins])
  app.get('/v1/conversations/:conversationId/events', {
    websocket: true,
    schema: {
      operationId: 'streamConversationEvents',
      tags: [TAGS.sessions],
      summary: 'WebSocket (101): replay events after `afterSeq`, then live ones. `channel=work` keeps only work events. See docs/realtime.md.',
      params: Type.Object({ conversationId: Type.String({ minLength: 1, maxLength: 64 }) }),
      querystring: Type.Object({
        afterSeq: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
        channel: Type.Optional(Type.Union([Type.Literal('work'), Type.Literal('all')], { default: 'all' })),
      }),
      response: { 101: { description: 'Switching Protocols: the realtime channel.' }, ...problems(400, 401, 426) },
    },
    config: { access: 'socket' },
  }, async (socket, request) => {
    const actor = socketMember(socket, request.headers.origin, trusted, request.actor)
    if (!actor) return
    const { conversationId } = request.params
    const conversation = await findConversationInWorkspace(deps.database.db, actor.membership.workspaceId, conversationId)
    if (!conversation) return socket.close(CLOSE_POLICY, 'conversation not found')

    const presence = (state: string) => deps.events.append(deps.database.db, conversationId, 'presence', {
      accountId: actor.accountId, name: actor.name, state,
    })
    // Every connection records 'joined' and, once it is gone, 'left' — always in that order, also
    // when the client leaves before 'joined' was written.
    let joined: Promise<unknown> | undefined
    let gone = false
    let leftRecorded = false
    const recordLeft = () => {
      if (leftRecorded) return
      leftRecorded = true
      presence('left').catch((error: unknown) => request.log.warn({ err: error }, 'could not record presence'))
    }
    await runSocket(socket, deps.realtimeHub, {
      conversationId,
      afterSeq: request.query.afterSeq ?? 0,
      channel: request.query.channel === 'work' ? 'work' : 'all',
      handlers: {
        'session.end': () => endFromSocket(deps, actor, conversation.session_id),
        'transcript.segment': async (message: ClientMessage) => {
          if (!actor.membership || !canEditContent(actor.membership)) {
            throw new SocketError('forbidden', 'Your content permission is view: you cannot add to the transcript.')
          }
          await acceptClientSegment(deps, conversation.session_id, (message.data ?? {}) as ClientSegment)
        },
        'presence.update': async (message: ClientMessage) => {
          const state = (message.data as { state?: unknown } | undefined)?.state
          if (typeof state !== 'string' || !PRESENCE_STATES.includes(state)) {
            throw new SocketError('invalid_message', `presence.update needs data.state: ${PRESENCE_STATES.join(', ')}.`)
          }
          await presence(state)
        },
      },
      onClose: () => {
        gone = true
        joined?.then(recordLeft, () => {})
      },
    })
    joined = presence('joined')
    await joined
    if (gone) recordLeft()
  })
}

async function endFromSocket(deps: AppDeps, actor: Actor, sessionId: string) {
  if (!actor.membership || !canEditContent(actor.membership)) {
    throw new SocketError('forbidden', 'Your content permission is view: you cannot end the session.')
  }
  await endSession(deps, actor, sessionId)
}
