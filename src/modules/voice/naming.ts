// A person names a session speaker ("Speaker 2" → "Dana Li"), or gives it back its "Speaker N"
// label (name null). A name is a manual label: it wins over the engine (identify.ts leaves manual
// speakers alone) and unlinks the voice identity the engine had matched, whose centroid is then
// recomputed without it. The transcript, the `speaker.updated` event (live and on replay) and the
// session's work suggesting the old label as owner (work module) show the new one.
import type { Membership } from '../../platform/auth/actor.ts'
import type { AppDeps } from '../../platform/deps.ts'
import { notFound } from '../../platform/http/errors.ts'
import { requiredText } from '../../platform/http/validators.ts'
import { lockSessionRow } from '../sessions/index.ts'
import { ensureSpeaker } from '../transcripts/index.ts'
import { renameSuggestedOwner } from '../work/index.ts'
import * as repo from './repo.ts'
import { announceSpeaker, recomputeCentroid } from './speakers.ts'

export async function nameSpeaker(deps: AppDeps, caller: { membership: Membership; accountId: string }, sessionId: string, speakerId: string, input: { name: string | null }) {
  const { workspaceId } = caller.membership
  const name = input.name === null ? undefined : requiredText('name', input.name.normalize('NFC'))
  return deps.database.db.transaction().execute(async (trx) => {
    const at = new Date().toISOString()
    // The session row is locked first, as a refinement writing this session's work locks it (refine.ts).
    await lockSessionRow(trx, deps.database.dialect, sessionId, workspaceId) ?? notFound('session', sessionId)
    const before = await ensureSpeaker(trx, sessionId, speakerId, at) ?? notFound('session speaker', speakerId)
    const voice = await repo.findVoice(trx, workspaceId, sessionId, speakerId)
    const state = voice?.state === 'opted-out' ? 'opted-out' as const : 'unnamed' as const
    if (!voice) {
      await repo.upsertVoice(trx, {
        session_id: sessionId, speaker_id: speakerId, workspace_id: workspaceId, embedding: null, embedding_weight: 0, state,
        identity_id: null, suggested_identity_id: null, score: null, is_manual: name ? 1 : 0, updated_at: at,
      })
    } else {
      await repo.updateVoice(trx, sessionId, speakerId, { state, identity_id: null, suggested_identity_id: null, is_manual: name || state === 'opted-out' ? 1 : 0, updated_at: at })
      const matched = voice.identity_id ? await repo.findIdentity(trx, workspaceId, voice.identity_id) : undefined
      if (matched) await recomputeCentroid(trx, matched, at)
    }
    const label = await announceSpeaker(deps, trx, workspaceId, sessionId, speakerId, name, { state })
    const renamedOwners = await renameSuggestedOwner(deps, trx, { workspaceId, sessionId, from: [before.label, speakerId], to: label, actorId: caller.accountId })
    return { speaker: { sessionId, speakerId, label, voice: { state } }, renamedOwners }
  })
}
