// Runner: local runners on members' machines. It owns the pairing grants, the runners (Ed25519
// public key, hashed runner token, revocation), the tasks made from work objects whose next step
// is a runner step (owner's confirmation, leases, progress) and the nonces of signed completions;
// a completion's result lands on the work object through the work module (a revision proposal or
// a comment). It exports nothing for other modules.
import type { FastifyPluginAsync } from 'fastify'
import type { AppDeps } from '../../platform/deps.ts'
import { runnerActorPort, runnerRoutes } from './routes.ts'
import { runnerSchemas } from './schemas.ts'

export function runnerModule(deps: AppDeps): FastifyPluginAsync {
  // Agent tools (integrations) accept a runner's token for its owner through this port.
  deps.ports.runnerActor = runnerActorPort(deps)
  return async (app) => {
    for (const schema of runnerSchemas) app.addSchema(schema)
    runnerRoutes(app, deps)
  }
}
