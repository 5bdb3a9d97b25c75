// Background work of capture sessions. Processing transcribes what remains of the audio (with the
// configured engine; with client-side recognition there is nothing to do) and moves the session
// from `processing` to `ready`. A job that keeps failing marks it `failed` with the last error.
import { defineJob } from '../../platform/jobs/index.ts'
import { transcribeSession } from '../transcripts/index.ts'
import { finishProcessing, PROCESS_SESSION_JOB } from './service.ts'

export type ProcessSessionPayload = { sessionId: string }

export const processSessionJob = defineJob<ProcessSessionPayload>({
  name: PROCESS_SESSION_JOB,
  maxAttempts: 5,
  backoff: 2000,
  async handler({ sessionId }, { deps }) {
    await transcribeSession(deps, sessionId, { final: true })
    await finishProcessing(deps, deps.database.db, sessionId, {})
  },
  async onDead({ sessionId }, error, { deps, executor }) {
    await finishProcessing(deps, executor, sessionId, {
      failureReason: `Processing the recording failed repeatedly (${error.slice(0, 300)}); POST /v1/sessions/${sessionId}/retry tries again.`,
    })
  },
})
