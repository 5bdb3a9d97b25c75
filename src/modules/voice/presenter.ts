// Voice rows → API shapes. Embeddings and centroids are never returned.
import type { IdentityRow, SpeakerVoiceRow } from './repo.ts'

export function presentIdentity(identity: IdentityRow, speakers: SpeakerVoiceRow[]) {
  return {
    id: identity.id,
    workspaceId: identity.workspace_id,
    displayName: identity.display_name,
    ...(identity.account_id ? { memberAccountId: identity.account_id } : {}),
    source: identity.source,
    nameIsManual: identity.name_is_manual === 1,
    mergedFrom: JSON.parse(identity.merged_from) as string[],
    sessionSpeakers: speakers.map((speaker) => ({
      sessionId: speaker.session_id, speakerId: speaker.speaker_id, state: speaker.state,
      ...(speaker.score !== null ? { score: Math.round(speaker.score * 1000) / 1000 } : {}),
    })),
    hasCentroid: identity.centroid !== null,
    revision: identity.revision,
    createdAt: identity.created_at,
    updatedAt: identity.updated_at,
  }
}
