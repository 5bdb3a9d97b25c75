// Transcripts: the segments and speakers of capture sessions. Other modules (work objects,
// extraction, search, summaries, shares) read segments through the functions exported here.
import type { FastifyPluginAsync } from 'fastify'
import type { AppDeps } from '../../platform/deps.ts'
import './jobs.ts'
import { transcriptReach } from './repo.ts'
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
  // The sessions module says how long a meeting lasted from how far its transcript reaches (it cannot import this module).
  deps.ports.transcriptReach = transcriptReach
  return async (app) => {
    transcriptRoutes(app, deps)
  }
}
