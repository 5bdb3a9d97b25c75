// Sessions: capture sessions and their conversations — create (one recording session per
// account), list, change, end; durable audio ingestion; the processing job; and the realtime
// channel of a conversation (events-route.ts). Other modules use the functions exported here.
import type { FastifyPluginAsync } from 'fastify'
import type { AppDeps } from '../../platform/deps.ts'
import { audioRoutes, registerAudioParsers } from './audio-routes.ts'
import { eventsRoute } from './events-route.ts'
import './jobs.ts'
import { sessionRoutes } from './routes.ts'
import { sessionSchemas } from './schemas.ts'

export { endSession, findConversationInWorkspace, getSession } from './service.ts'
export { presentSession, type SessionSnapshot } from './presenter.ts'
export { findSession as findSessionRow, toSessionRow, type SessionRow } from './repo.ts'
export { findSessionBriefs, listProjectSessions, type SessionBrief } from './lookup.ts'

export function sessionsModule(deps: AppDeps): FastifyPluginAsync {
  return async (app) => {
    for (const schema of sessionSchemas) app.addSchema(schema)
    registerAudioParsers(app)
    sessionRoutes(app, deps)
    audioRoutes(app, deps)
    eventsRoute(app, deps)
  }
}
