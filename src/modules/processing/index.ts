// Processing: the after-capture chain of an ended session — transcribe what remains, refine
// (extraction proposes the meeting's work), derive the takeover summary, then mark the session
// ready (or failed with its reason). It sits above sessions, transcripts, extraction and work and
// serves no route; sessions enqueue its job by name (JOBS.processSession), so no module imports it.
import type { FastifyPluginAsync } from 'fastify'
import type { AppDeps } from '../../platform/deps.ts'
import './jobs.ts'

export function processingModule(_deps: AppDeps): FastifyPluginAsync {
  return async () => {}
}
