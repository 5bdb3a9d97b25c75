// While recording, new final segments enqueue a refinement (one pending per session); the
// session's processing job runs the last one itself before the session is `ready`. With a chat
// model each run sends the whole transcript so far, so while recording it runs at most once per
// GROUNDED_REFINE_INTERVAL_MS: a run asked for sooner is put off until then (one pending).
import { enqueue, defineJob, type JobContext } from '../../platform/jobs/index.ts'
import { workModel } from '../../platform/llm/chat.ts'
import { REFINE_JOB, refineSession } from './refine.ts'
import { findSessionById } from '../sessions/index.ts'

export const GROUNDED_REFINE_INTERVAL_MS = 60_000

export async function refineWhenDue({ sessionId }: { sessionId: string }, { deps }: Pick<JobContext, 'deps'>) {
  const { db } = deps.database
  if (workModel(deps)) {
    const [session, refinement] = await Promise.all([
      findSessionById(db, sessionId),
      db.selectFrom('work_refinements').select('last_run_at').where('session_id', '=', sessionId).executeTakeFirst(),
    ])
    const wait = refinement?.last_run_at ? GROUNDED_REFINE_INTERVAL_MS - (Date.now() - Date.parse(refinement.last_run_at)) : 0
    if (session?.state === 'recording' && wait > 0) {
      await enqueue(db, REFINE_JOB, { sessionId }, { dedupeKey: `${sessionId}:later`, runAt: new Date(Date.now() + wait) })
      return false
    }
  }
  await refineSession(deps, sessionId)
  return true
}

export const refineJob = defineJob<{ sessionId: string }>({
  name: REFINE_JOB,
  maxAttempts: 3,
  backoff: 2000,
  handler: (payload, context) => refineWhenDue(payload, context).then(() => undefined),
})
