// Background work of the work module: deriving the takeover summary again when a set whose
// meeting had no action item gets one (record.ts enqueues it, one pending per set).
import { defineJob } from '../../platform/jobs/index.ts'
import { deriveTakeover } from './takeover.ts'
import { JOBS } from '../../domain/jobs.ts'

export const TAKEOVER_JOB = JOBS.takeover

export const takeoverJob = defineJob<{ sessionId: string }>({
  name: TAKEOVER_JOB,
  maxAttempts: 3,
  backoff: 2000,
  async handler({ sessionId }, { deps }) {
    await deriveTakeover(deps, sessionId)
  },
})
