// Background transcription: while recording, a job per session (deduplicated: one pending at a
// time) turns new chunks into segments; the session's processing job (sessions module) runs the
// final pass when it ends.
import { defineJob } from '../../platform/jobs/index.ts'
import { transcribeSession } from './pipeline.ts'

export const TRANSCRIBE_JOB = 'transcripts.transcribe'

export const transcribeJob = defineJob<{ sessionId: string }>({
  name: TRANSCRIBE_JOB,
  maxAttempts: 5,
  backoff: 1000,
  async handler({ sessionId }, { deps }) {
    const session = await deps.database.db.selectFrom('capture_sessions').select('state').where('id', '=', sessionId).executeTakeFirst()
    // After the end, the processing job does the rest (with `final`).
    if (session?.state !== 'recording') return
    await transcribeSession(deps, sessionId, { final: false })
  },
})
