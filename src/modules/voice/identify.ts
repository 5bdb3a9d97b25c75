// Identification: each session speaker's voiceprint is compared with the profiles of the
// workspace's enrolled members who have not opted out there. At or above the match threshold the
// speaker is named (the member's identity in the workspace), at or above the suggest threshold the
// member is only suggested, anyone else stays "Speaker N". Speakers a person placed (split,
// delete) and opted-out speakers are left alone: manual labels win over the engine.
import type { AppDeps } from '../../platform/deps.ts'
import { newId } from '../../platform/ids.ts'
import { defineJob } from '../../platform/jobs/index.ts'
import { candidatesOf } from './candidates.ts'
import { judge, type Candidate } from './judge.ts'
import * as repo from './repo.ts'
import { announceSpeaker, IDENTIFY_JOB, recomputeCentroid } from './speakers.ts'

export async function identifySession(deps: AppDeps, workspaceId: string, sessionId: string) {
  const candidates = await candidatesOf(deps, workspaceId)
  const engine = deps.speech.voice
  await deps.database.db.transaction().execute(async (trx) => {
    const at = new Date().toISOString()
    const touched = new Map<string, repo.IdentityRow>()
    const identityOf = async (candidate: Candidate) => {
      let identity = await repo.findMemberIdentity(trx, workspaceId, candidate.accountId)
      if (!identity) {
        identity = {
          id: newId('vid'), workspace_id: workspaceId, display_name: candidate.name, account_id: candidate.accountId, source: 'enrollment',
          name_is_manual: 0, centroid: null, merged_from: '[]', revision: 1, created_at: at, updated_at: at,
        }
        await repo.insertIdentity(trx, identity)
      }
      return identity
    }
    for (const voice of await repo.sessionVoices(trx, sessionId)) {
      if (voice.state === 'opted-out' || voice.is_manual || !voice.embedding) continue
      const verdict = judge(repo.parseVector(voice.embedding)!, voice.embedding_weight, candidates, engine.naming, engine.cohort)
      const identity = verdict.candidate && verdict.state !== 'unnamed' ? await identityOf(verdict.candidate) : undefined
      const identityId = verdict.state === 'named' ? identity!.id : null
      const suggestedId = verdict.state === 'suggested' ? identity!.id : null
      const unchanged = voice.state === verdict.state && voice.identity_id === identityId && voice.suggested_identity_id === suggestedId
      await repo.updateVoice(trx, sessionId, voice.speaker_id, {
        state: verdict.state, identity_id: identityId, suggested_identity_id: suggestedId, score: verdict.score ?? null, updated_at: at,
      })
      if (voice.identity_id) touched.set(voice.identity_id, (await repo.findIdentity(trx, workspaceId, voice.identity_id))!)
      if (identity) touched.set(identity.id, identity)
      if (unchanged) continue
      await announceSpeaker(deps, trx, workspaceId, sessionId, voice.speaker_id, verdict.state === 'named' ? identity!.display_name : undefined, {
        state: verdict.state,
        ...(identityId ? { identityId } : {}),
        ...(suggestedId ? { suggestion: { identityId: suggestedId, displayName: identity!.display_name, score: Math.round(verdict.score! * 1000) / 1000 } } : {}),
      })
    }
    for (const identity of touched.values()) if (identity) await recomputeCentroid(trx, identity, at)
  })
}

export const identifyJob = defineJob<{ sessionId: string; workspaceId: string }>({
  name: IDENTIFY_JOB,
  maxAttempts: 5,
  backoff: 1000,
  async handler({ sessionId, workspaceId }, { deps }) {
    await identifySession(deps, workspaceId, sessionId)
  },
})
