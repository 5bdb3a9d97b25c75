// Shares: a session's share link (read or comment), managed by members and opened by anyone with
// the token. Comments through a link land on the work objects' comments (work module).
import type { FastifyPluginAsync } from 'fastify'
import type { AppDeps } from '../../platform/deps.ts'
import { shareRoutes } from './routes.ts'
import { shareSchemas } from './schemas.ts'

export { resolveShare } from './service.ts'

export function sharesModule(deps: AppDeps): FastifyPluginAsync {
  return async (app) => {
    for (const schema of shareSchemas) app.addSchema(schema)
    shareRoutes(app, deps)
  }
}
