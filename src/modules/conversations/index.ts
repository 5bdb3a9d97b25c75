// Conversations: the realtime channel of a conversation (`GET /v1/conversations/{id}/events`,
// docs/realtime.md): replay after `afterSeq`, live events, presence, and the client's messages
// (`transcript.segment` to the transcripts module, `session.end` to the sessions module). It owns
// no table: the events live in the platform's event log.
import type { FastifyPluginAsync } from 'fastify'
import type { AppDeps } from '../../platform/deps.ts'
import { eventsRoute } from './events-route.ts'

export function conversationsModule(deps: AppDeps): FastifyPluginAsync {
  return async (app) => {
    eventsRoute(app, deps)
  }
}
