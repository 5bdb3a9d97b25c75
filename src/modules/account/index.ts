// Account: the signed-in person — bootstrap into a workspace, current account, profile, avatar.
// Sign-in itself is better-auth's (platform/auth); this module starts where a session exists.
import type { FastifyPluginAsync } from 'fastify'
import type { AppDeps } from '../../platform/deps.ts'
import { accountRoutes } from './routes.ts'
import { accountSchemas } from './schemas.ts'
import { AVATAR_MAX_BYTES } from './service.ts'

export function accountModule(deps: AppDeps): FastifyPluginAsync {
  return async (app) => {
    for (const schema of accountSchemas) app.addSchema(schema)
    app.addContentTypeParser(/^image\//, { parseAs: 'buffer', bodyLimit: AVATAR_MAX_BYTES }, (_request, body, done) => done(null, body))
    accountRoutes(app, deps)
  }
}
