// Integrations and external actions: connections to the tools a team uses (credentials and OAuth
// tokens encrypted at rest), which connections and actions each project may use, recommended
// actions drafted from work objects, and prepare → approve → execute with a durable job and an
// append-only execution. Owns integration_*, action_recommendations, external_actions and
// external_executions(_events). Other modules get, through deps.ports (filled here, no import):
// - worksetActions(executor, workSetId): the ActionV2[] and ExecutionV2[] of the work set detail;
// - externalContext(query): read-only search over a project's permitted connections (memory);
// - workObjectChanged(executor, change): a changed work object's recommendations are redrafted
//   (job integrations.redraft); prepared actions from an outdated draft become superseded.
// It reads work objects through ../work/index.ts.
import type { FastifyPluginAsync } from 'fastify'
import type { AppDeps } from '../../platform/deps.ts'
import { enqueue } from '../../platform/jobs/index.ts'
import { integrationRoutes } from './routes.ts'
import { ROTATE_JOB, scheduleRedraft } from './run.ts'
import { integrationSchemas } from './schemas.ts'
import { externalContextSource, worksetActions } from './tools.ts'

import { keyringOf } from './secrets.ts'

export { rotateSecrets } from './secrets.ts'

export function integrationsModule(deps: AppDeps): FastifyPluginAsync {
  deps.ports.worksetActions = worksetActions
  deps.ports.externalContext = externalContextSource(deps)
  deps.ports.workObjectChanged = scheduleRedraft()
  return async (app) => {
    for (const schema of integrationSchemas) app.addSchema(schema)
    integrationRoutes(app, deps)
    // Configured encryption keys may be new: any node's worker re-encrypts older rows in the
    // background. Never in the way of starting (the database may be unreachable for now).
    if (deps.config.integrations.encryptionKeys.length > 0) {
      app.addHook('onReady', async () => {
        enqueue(deps.database.db, ROTATE_JOB, {}, { dedupeKey: `v${keyringOf(deps).currentVersion}` })
          .catch((error: Error) => app.log.warn({ err: error.message }, 'could not schedule the re-encryption of connection secrets'))
      })
    }
  }
}
