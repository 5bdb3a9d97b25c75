// Voice: enrolled members' voice profiles (with consent), the signed model manifest, workspace
// voice identities, each session speaker's voiceprint and its identification, and opt-outs.
// It fills the `voiceprints` port that transcription writes session speakers' embeddings
// through, and reads speakers and segments through the transcripts module's index. Other
// modules need nothing from it.
import type { FastifyPluginAsync } from 'fastify'
import type { AppDeps } from '../../platform/deps.ts'
import './identify.ts'
import { voiceRoutes } from './routes.ts'
import { voiceSchemas } from './schemas.ts'
import { voiceprintStore } from './speakers.ts'

export function voiceModule(deps: AppDeps): FastifyPluginAsync {
  deps.ports.voiceprints = voiceprintStore(deps)
  return async (app) => {
    for (const schema of voiceSchemas) app.addSchema(schema)
    voiceRoutes(app, deps)
  }
}
