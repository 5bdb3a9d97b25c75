// Session speakers as the voice module sees them: their stored voiceprints (the port transcription
// writes through), their labels, and the `speaker.updated` event each change sends.
import type { AppDeps } from '../../platform/deps.ts'
import { enqueue } from '../../platform/jobs/index.ts'
import type { SpeakerVoice, Voiceprints } from '../../platform/ports.ts'
import type { Executor } from '../../platform/realtime/types.ts'
import { centroid } from '../../platform/speech/embedding/index.ts'
import { speakerLabel } from '../../platform/speech/speakers.ts'
import { findSessionRow } from '../sessions/index.ts'
import { labelSpeaker } from '../transcripts/index.ts'
import { candidatesOf } from './candidates.ts'
import * as repo from './repo.ts'

export const IDENTIFY_JOB = 'voice.identify'

/** The port transcription uses: session speakers' running embeddings live in voice_speakers. */
export function voiceprintStore(deps: AppDeps): Voiceprints {
  return {
    async speakerVoices(executor, workspaceId, sessionId) {
      const voices = await repo.sessionVoices(executor, sessionId)
      const result = new Map<string, SpeakerVoice>()
      for (const voice of voices) {
        if (voice.workspace_id !== workspaceId) continue
        const suggested = voice.state === 'suggested' && voice.suggested_identity_id ? await repo.findIdentity(executor, workspaceId, voice.suggested_identity_id) : undefined
        result.set(voice.speaker_id, {
          state: voice.state,
          ...(voice.identity_id ? { identityId: voice.identity_id } : {}),
          ...(suggested ? { suggestion: { identityId: suggested.id, displayName: suggested.display_name, score: Math.round((voice.score ?? 0) * 1000) / 1000 } } : {}),
        })
      }
      return result
    },
    async anchors(_executor, workspaceId) {
      return (await candidatesOf(deps, workspaceId)).map((candidate) => candidate.embedding)
    },
    async load(executor, sessionId) {
      const voices = await repo.sessionVoices(executor, sessionId)
      return new Map(voices.filter((voice) => voice.embedding && voice.state !== 'opted-out')
        .map((voice) => [voice.speaker_id, { embedding: repo.parseVector(voice.embedding)!, weight: voice.embedding_weight }]))
    },
    async save(executor, { sessionId, workspaceId, speakers }) {
      const at = new Date().toISOString()
      for (const speaker of speakers) {
        await repo.upsertVoice(executor, {
          session_id: sessionId, speaker_id: speaker.speakerId, workspace_id: workspaceId, embedding: repo.vectorText(speaker.embedding),
          embedding_weight: speaker.weight, state: 'unnamed', identity_id: null, suggested_identity_id: null, score: null, is_manual: 0, updated_at: at,
        })
      }
      await enqueue(executor, IDENTIFY_JOB, { sessionId, workspaceId }, { dedupeKey: `voice:${sessionId}` })
    },
  }
}

export type SpeakerUpdate = {
  state: repo.SpeakerVoiceRow['state']
  identityId?: string
  suggestion?: { identityId: string; displayName: string; score: number }
}

/**
 * Labels a session speaker (a name, or back to "Speaker N") and tells the session's channel.
 * The label lives in the transcripts module; the event carries the voice state with it.
 */
export async function announceSpeaker(deps: AppDeps, executor: Executor, workspaceId: string, sessionId: string, speakerId: string, name: string | undefined, update: SpeakerUpdate) {
  const session = await findSessionRow(executor, workspaceId, sessionId)
  if (!session) return speakerLabel(speakerId)
  const label = name ?? speakerLabel(speakerId)
  await labelSpeaker(executor, sessionId, speakerId, label, new Date().toISOString())
  await deps.events.append(executor, session.conversation_id, 'speaker.updated', { speakerId, label, ...update })
  return label
}

/** Recomputes an identity's centroid from its speakers' embeddings and, when linked, the member's profile. */
export async function recomputeCentroid(executor: Executor, identity: repo.IdentityRow, at: string) {
  const voices = await repo.voicesOfIdentity(executor, identity.id)
  const vectors = voices.map((voice) => repo.parseVector(voice.embedding)).filter((vector) => vector !== undefined)
  const weights = voices.filter((voice) => voice.embedding).map((voice) => Math.max(1, voice.embedding_weight))
  const profile = identity.account_id ? await repo.findProfile(executor, identity.account_id) : undefined
  if (profile) {
    vectors.push(repo.parseVector(profile.embedding)!)
    weights.push(Math.max(1, profile.embedding_count))
  }
  const mean = centroid(vectors, weights)
  await executor.updateTable('voice_identities').set({ centroid: mean ? repo.vectorText(mean) : null, updated_at: at }).where('id', '=', identity.id).execute()
}
