// Test helpers of the voice module: identities and session voices written straight to the tables,
// and enrollment through the routes with embeddings of the built-in engine.
import type { Harness, Member } from '../../../test/harness.ts'
import { newId } from '../../platform/ids.ts'
import { builtinEmbedder } from '../../platform/speech/embedding/index.ts'
import { seedSpeaker } from '../transcripts/testing.ts'
import * as repo from './repo.ts'

/** A unit vector of the built-in engine's size, pointing mostly along `axis` (different axes: different voices). */
export function unitVector(axis: number, jitter = 0): number[] {
  const size = builtinEmbedder().dimension
  const vector = Array.from({ length: size }, (_, index) => (index === axis % size ? 1 : 0) + (index === (axis + 1 + jitter) % size ? 0.1 : 0))
  const length = Math.hypot(...vector)
  return vector.map((value) => value / length)
}

/** A session speaker with a voiceprint, in a manual identity of the session's workspace. */
export async function seedVoiceIdentity(h: Harness, owner: Member, sessionId: string, speakerId = 'spk_1', options: { accountId?: string; axis?: number } = {}) {
  await seedSpeaker(h, { id: sessionId }, speakerId)
  const at = new Date().toISOString()
  const id = newId('vid')
  const embedding = repo.vectorText(unitVector(options.axis ?? 0))
  await repo.insertIdentity(h.database.db, {
    id, workspace_id: owner.workspaceId, display_name: 'Seeded voice', account_id: options.accountId ?? null, source: 'manual',
    name_is_manual: 0, centroid: embedding, merged_from: '[]', revision: 1, created_at: at, updated_at: at,
  })
  await repo.upsertVoice(h.database.db, {
    session_id: sessionId, speaker_id: speakerId, workspace_id: owner.workspaceId, embedding, embedding_weight: 3,
    state: 'named', identity_id: id, suggested_identity_id: null, score: 0.9, is_manual: 0, updated_at: at,
  })
  await repo.updateVoice(h.database.db, sessionId, speakerId, { identity_id: id, state: 'named' })
  return id
}

/** Moves a session speaker's voice into another identity (to split it out of that one). */
export async function moveVoiceToIdentity(h: Harness, sessionId: string, speakerId: string, identityId: string) {
  await repo.updateVoice(h.database.db, sessionId, speakerId, { identity_id: identityId })
}
