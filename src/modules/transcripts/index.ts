// Transcripts: the segments and speakers of capture sessions. Other modules (work objects,
// extraction, search, summaries, shares) read segments through the functions exported here.
import type { FastifyPluginAsync } from 'fastify'
import type { AppDeps } from '../../platform/deps.ts'
import './jobs.ts'
import { transcriptRoutes } from './routes.ts'
export {
  countFinalSegments, finalSegments, findSegment, findSessionSegments, findWorkspaceSegments, listSegments, listSpeakers, segmentSpeakerLabels,
  type SegmentRow, type SpeakerRow,
} from './repo.ts'
export { transcribeSession } from './pipeline.ts'
export { anySegmentHits, FREQUENT, latestSegmentTexts, segmentFrequencies, segmentHits, segmentNeighbourhoods, type SegmentHit } from './search.ts'
export { acceptClientSegment, type ClientSegment } from './client.ts'
export { ensureSpeaker, findSpeaker, labelSpeaker, speakerSegments } from './speakers.ts'
export { presentSegment, presentSpeaker, type TranscriptSegment } from './presenter.ts'

export function transcriptsModule(deps: AppDeps): FastifyPluginAsync {
  return async (app) => {
    transcriptRoutes(app, deps)
  }
}
