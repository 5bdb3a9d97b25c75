// Sessions: capture sessions and their conversations — create (one recording session per
// account), list, change, end, retry; durable audio ingestion. Ending enqueues the after-capture
// chain by name (JOBS.processSession, handled by the processing module); new chunks enqueue
// transcription (JOBS.transcribe). Owns conversations, capture_sessions and audio_chunks; other
// modules read them through the functions exported here.
import type { FastifyPluginAsync } from 'fastify'
import type { AppDeps } from '../../platform/deps.ts'
import { audioRoutes, registerAudioParsers } from './audio-routes.ts'
import { sessionRoutes } from './routes.ts'
import { sessionSchemas } from './schemas.ts'
import { listProjectSessions } from './service.ts'

export { endSession, findConversationInWorkspace, finishProcessing, getSession, listProjectSessions } from './service.ts'
export { presentSession, type SessionSnapshot } from './presenter.ts'
export {
  findSession as findSessionRow, findSessionById, lockSession as lockSessionRow, findSessionsByTitleTerms, listChunkRange, listChunks, listSessionsByIds, sessionStateColumn, sessionStates, toSessionRow,
  type SessionRow,
} from './repo.ts'
export { findSessionBriefs, listProjectSessionBriefs, type SessionBrief } from './lookup.ts'

export function sessionsModule(deps: AppDeps): FastifyPluginAsync {
  // The projects module lists a project's sessions through this port (it cannot import this module:
  // this module imports projects to check a session's projectId).
  deps.ports.projectSessions = (executor, workspaceId, projectId) => listProjectSessions(deps, executor, workspaceId, projectId)
  return async (app) => {
    for (const schema of sessionSchemas) app.addSchema(schema)
    registerAudioParsers(app)
    sessionRoutes(app, deps)
    audioRoutes(app, deps)
  }
}
