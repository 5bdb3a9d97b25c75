// Memory: what a project knows (DESIGN §8) — entries derived from accepted work across its
// sessions, bound external items and indexed codebases, each with validity, status and sources;
// the conflicts a person resolves; external context asked of connected tools (through the
// deps.ports.externalContext port) and recorded as observations; codebases registered and indexed.
// It fills deps.ports.workChanged so the work module's changes schedule a refresh (job
// `memory.refresh`) without importing this module. Other modules use:
// - searchMemory(deps, workspaceId, words): entries, bound items and code chunks mentioning any word (answers);
// - refreshProjectMemory(deps, workspaceId, projectId): derive the project's memory now.
import type { FastifyPluginAsync } from 'fastify'
import type { AppDeps } from '../../platform/deps.ts'
import { scheduleRefresh } from './refresh.ts'
import { memoryRoutes } from './routes.ts'
import { memorySchemas } from './schemas.ts'

export { searchMemory, type MemoryHit } from './search.ts'
export { refreshProjectMemory, REFRESH_JOB } from './refresh.ts'
export type { MemorySource } from './derive.ts'

export function memoryModule(deps: AppDeps): FastifyPluginAsync {
  deps.ports.workChanged = (executor, change) => scheduleRefresh(executor, { workspaceId: change.workspaceId, sessionId: change.sessionId })
  return async (app) => {
    for (const schema of memorySchemas) app.addSchema(schema)
    memoryRoutes(app, deps)
  }
}
