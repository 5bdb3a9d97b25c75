// The after-capture chain of an ended session. Processing transcribes what remains of the audio
// (with the configured engine; with client-side recognition there is nothing to do) and moves the
// session from `processing` to `ready` once the transcript's work items are proposed (extraction)
// and the takeover summary is derived. A job that keeps failing marks it `failed` with the last error.
import { JOBS, type SessionJobPayload } from '../../domain/jobs.ts'
import { defineJob } from '../../platform/jobs/index.ts'
import { refineSession } from '../extraction/index.ts'
import { finishProcessing } from '../sessions/index.ts'
import { transcribeSession } from '../transcripts/index.ts'
import { deriveTakeover } from '../work/index.ts'

export const processSessionJob = defineJob<SessionJobPayload>({
  name: JOBS.processSession,
  maxAttempts: 5,
  backoff: 2000,
  async handler({ sessionId }, { deps, log }) {
    await transcribeSession(deps, sessionId, { final: true })
    // The meeting's work is in the work set (as proposals) by the time the session is ready.
    // A failed extraction is recorded on the refinement (and can be rebuilt); the recording is still ready.
    await refineSession(deps, sessionId).catch((error: unknown) => log.warn({ err: error, sessionId }, 'extraction failed'))
    // Then the takeover summary (its own failure is stored as takeoverState failed, with a retry).
    await deriveTakeover(deps, sessionId).catch((error: unknown) => log.warn({ err: error, sessionId }, 'takeover summary failed'))
    await finishProcessing(deps, deps.database.db, sessionId, {})
  },
  async onDead({ sessionId }, error, { deps, executor }) {
    await finishProcessing(deps, executor, sessionId, {
      failureReason: `Processing the recording failed repeatedly (${error.slice(0, 300)}); POST /v1/sessions/${sessionId}/retry tries again.`,
    })
  },
})
