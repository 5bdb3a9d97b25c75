// Background work of capture sessions. Processing will transcribe the audio (next issue); for now
// it moves an ended session from `processing` to `ready`. A job that keeps failing marks it `failed`.
import { defineJob } from '../../platform/jobs/index.ts'
import { finishProcessing, PROCESS_SESSION_JOB } from './service.ts'

export type ProcessSessionPayload = { sessionId: string }

export const processSessionJob = defineJob<ProcessSessionPayload>({
  name: PROCESS_SESSION_JOB,
  maxAttempts: 5,
  backoff: 2000,
  async handler({ sessionId }, { deps }) {
    await finishProcessing(deps, deps.database.db, sessionId, {})
  },
  async onDead({ sessionId }, _error, { deps, executor }) {
    await finishProcessing(deps, executor, sessionId, { failureReason: 'Processing the recording failed repeatedly; an operator can retry it.' })
  },
})
