// While recording, new final segments enqueue a refinement (one pending per session); the
// session's processing job runs the last one itself before the session is `ready`.
import { defineJob } from '../../platform/jobs/index.ts'
import { REFINE_JOB, refineSession } from './refine.ts'

export const refineJob = defineJob<{ sessionId: string }>({
  name: REFINE_JOB,
  maxAttempts: 3,
  backoff: 2000,
  async handler({ sessionId }, { deps }) {
    await refineSession(deps, sessionId)
  },
})
