// A person's word on one session speaker, given through PATCH of a voice identity (docs/decisions.md,
// "Voice"): `confirmSpeaker` names the speaker as this identity (typically the engine's suggestion),
// `declineSpeaker` says it is not this voice. Either way the speaker becomes manual: the engine
// never changes it again (identify.ts skips manual speakers), and `speaker.updated` tells the session.
import type { AppDeps } from '../../platform/deps.ts'
import { badRequest, notFound } from '../../platform/http/errors.ts'
import type { Executor } from '../../platform/realtime/types.ts'
import { findSessionRow } from '../sessions/index.ts'
import { findSpeaker } from '../transcripts/index.ts'
import * as repo from './repo.ts'
import { announceSpeaker, recomputeCentroid } from './speakers.ts'

export type SpeakerRef = { sessionId: string; speakerId: string }

/** The session speaker's voice row (created without embeddings when the speaker has none yet); 404 outside the workspace. */
async function voiceOf(trx: Executor, workspaceId: string, { sessionId, speakerId }: SpeakerRef, at: string) {
  await findSessionRow(trx, workspaceId, sessionId) ?? notFound('session', sessionId)
  await findSpeaker(trx, sessionId, speakerId) ?? notFound('session speaker', speakerId)
  const existing = await repo.findVoice(trx, workspaceId, sessionId, speakerId)
  if (existing) return existing
  await repo.upsertVoice(trx, {
    session_id: sessionId, speaker_id: speakerId, workspace_id: workspaceId, embedding: null, embedding_weight: 0, state: 'unnamed',
    identity_id: null, suggested_identity_id: null, score: null, is_manual: 0, updated_at: at,
  })
  return (await repo.findVoice(trx, workspaceId, sessionId, speakerId))!
}

async function recomputeOther(trx: Executor, workspaceId: string, identityId: string | null, except: string, at: string) {
  if (!identityId || identityId === except) return
  const other = await repo.findIdentity(trx, workspaceId, identityId)
  if (other) await recomputeCentroid(trx, other, at)
}

/** Names the session speaker as `identity` (a person's confirmation wins over the engine). */
export async function confirmSpeaker(deps: AppDeps, trx: Executor, identity: repo.IdentityRow, ref: SpeakerRef, at: string) {
  const voice = await voiceOf(trx, identity.workspace_id, ref, at)
  if (voice.state === 'opted-out') throw badRequest('confirmSpeaker', 'opted_out', 'this speaker opted out of voice recognition and is never named')
  if (identity.account_id && (await repo.optedOutAccounts(trx, identity.workspace_id)).has(identity.account_id)) {
    throw badRequest('confirmSpeaker', 'member_opted_out', 'the member of this identity opted out of voice recognition in this workspace')
  }
  await repo.updateVoice(trx, ref.sessionId, ref.speakerId, { identity_id: identity.id, state: 'named', suggested_identity_id: null, is_manual: 1, updated_at: at })
  await recomputeCentroid(trx, identity, at)
  await recomputeOther(trx, identity.workspace_id, voice.identity_id, identity.id, at)
  await announceSpeaker(deps, trx, identity.workspace_id, ref.sessionId, ref.speakerId, identity.display_name, { state: 'named', identityId: identity.id })
}

/** Says the session speaker is not `identity`: its suggestion (or name) of it goes, and the engine leaves it alone. */
export async function declineSpeaker(deps: AppDeps, trx: Executor, identity: repo.IdentityRow, ref: SpeakerRef, at: string) {
  const voice = await voiceOf(trx, identity.workspace_id, ref, at)
  const wasNamed = voice.identity_id === identity.id
  const wasSuggested = voice.suggested_identity_id === identity.id
  await repo.updateVoice(trx, ref.sessionId, ref.speakerId, {
    ...(wasNamed ? { identity_id: null, state: 'unnamed' as const } : {}),
    ...(wasSuggested ? { suggested_identity_id: null, ...(voice.state === 'suggested' ? { state: 'unnamed' as const } : {}) } : {}),
    is_manual: 1, updated_at: at,
  })
  if (wasNamed) await recomputeCentroid(trx, identity, at)
  if (wasNamed || wasSuggested) {
    const state = voice.state === 'opted-out' ? 'opted-out' as const : 'unnamed' as const
    await announceSpeaker(deps, trx, identity.workspace_id, ref.sessionId, ref.speakerId, undefined, { state })
  }
}
