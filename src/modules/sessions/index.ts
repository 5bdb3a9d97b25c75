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
import { listProjectSessions } from './service.ts'

export { endSession, findConversationInWorkspace, getSession, listProjectSessions } from './service.ts'
export { presentSession, type SessionSnapshot } from './presenter.ts'
export { findSession as findSessionRow, toSessionRow, type SessionRow } from './repo.ts'

export function sessionsModule(deps: AppDeps): FastifyPluginAsync {
  // The projects module lists a project's sessions through this port (it cannot import this module:
  // this module imports projects to check a session's projectId).
  deps.ports.projectSessions = listProjectSessions
  return async (app) => {
    for (const schema of sessionSchemas) app.addSchema(schema)
    registerAudioParsers(app)
    sessionRoutes(app, deps)
    audioRoutes(app, deps)
    eventsRoute(app, deps)
  }
}
