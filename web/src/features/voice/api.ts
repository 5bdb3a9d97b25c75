// Voice: the caller's profile and enrollment, workspace voice identities, and a session speaker's
// name and opt-out. Embeddings are computed here in the browser with the server's built-in engine
// (src/platform/speech/embedding/builtin.ts, plain TypeScript) — the API takes embeddings, not audio.
import { api, invalidate, useResource } from '../../lib/api.ts'
import type {
  DeleteIdentityResult, DeleteVoiceProfileResult, EnrollmentCreated, PatchIdentityInput, SaveEnrollmentInput, VoiceIdentity,
  VoiceIdentityDetail, VoiceOptOutResult, VoiceProfile,
} from '../../lib/types.ts'

export const PROFILE = '/v1/account/voice-profile'
export const useVoiceProfile = () => useResource<VoiceProfile>(PROFILE)
export const startEnrollment = () => api.post<EnrollmentCreated>(`${PROFILE}/enrollments`, { consent: true })
export async function saveEnrollment(enrollmentId: string, input: SaveEnrollmentInput) {
  const result = await api.put<VoiceProfile>(`${PROFILE}/enrollments/${enrollmentId}`, input)
  invalidate(PROFILE)
  return result
}
export async function deleteVoiceProfile() {
  const result = await api.delete<DeleteVoiceProfileResult>(PROFILE)
  invalidate(PROFILE)
  return result
}

export const identityPath = (id: string) => `/v1/workspace/voice-identities/${id}`
export const useIdentity = (id: string) => useResource<VoiceIdentityDetail>(identityPath(id))
export async function patchIdentity(id: string, input: PatchIdentityInput) {
  const result = await api.patch<VoiceIdentity>(identityPath(id), input)
  invalidate(identityPath(id))
  return result
}
export const mergeIdentity = (id: string, targetIdentityId: string) => api.post<{ identity: VoiceIdentity }>(`${identityPath(id)}/merge`, { targetIdentityId })
export async function splitIdentity(id: string, sessionId: string, speakerId: string) {
  const result = await api.post<{ identity: VoiceIdentity; splitIdentity: VoiceIdentity }>(`${identityPath(id)}/split`, { sessionId, speakerId })
  invalidate(identityPath(id))
  return result
}
export const deleteIdentity = (id: string) => api.delete<DeleteIdentityResult>(identityPath(id))

/** Names a session speaker (null: back to "Speaker N"); the transcript, events and suggested owners follow. */
export const nameSpeaker = (sessionId: string, speakerId: string, name: string | null) =>
  api.patch<{ speaker: { sessionId: string; speakerId: string; label: string }; renamedOwners: number }>(`/v1/sessions/${sessionId}/speakers/${encodeURIComponent(speakerId)}`, { name })
export const optOutSpeaker = (sessionId: string, speakerId: string) =>
  api.post<VoiceOptOutResult>(`/v1/sessions/${sessionId}/speakers/${encodeURIComponent(speakerId)}/voice-opt-out`, {})
