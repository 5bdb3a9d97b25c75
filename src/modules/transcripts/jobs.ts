// Background transcription: while recording, a job per session (deduplicated: one pending at a
// time) turns new chunks into segments; the session's processing job (processing module) runs the
// final pass when it ends.
import { JOBS } from '../../domain/jobs.ts'
import { defineJob } from '../../platform/jobs/index.ts'
import { transcribeSession } from './pipeline.ts'
import { findSessionById } from '../sessions/index.ts'

const TRANSCRIBE_JOB = JOBS.transcribe

export const transcribeJob = defineJob<{ sessionId: string }>({
  name: TRANSCRIBE_JOB,
  maxAttempts: 5,
  backoff: 1000,
  async handler({ sessionId }, { deps }) {
    const session = await findSessionById(deps.database.db, sessionId)
    // After the end, the processing job does the rest (with `final`).
    if (session?.state !== 'recording') return
    await transcribeSession(deps, sessionId, { final: false })
  },
})
