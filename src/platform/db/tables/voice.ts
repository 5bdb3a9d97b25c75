// Row types of the tables owned by the voice module.
// Only that owner queries them; other modules go through its index.ts (docs/ARCHITECTURE.md).

export type VoiceProfileTable = {
  account_id: string
  model_version: string
  /** JSON number[]: the unit-length centroid of the enrollment embeddings */
  embedding: string
  embedding_count: number
  revision: number
  enrolled_at: string
  updated_at: string
}

export type VoiceEnrollmentState = 'open' | 'completed'

export type VoiceEnrollmentTable = {
  id: string
  account_id: string
  model_version: string
  state: VoiceEnrollmentState
  expires_at: string
  created_at: string
  completed_at: string | null
}

/** enrollment: a consenting member's voice in the workspace; manual: split out by a person */
export type VoiceIdentitySource = 'enrollment' | 'manual'

export type VoiceIdentityTable = {
  id: string
  workspace_id: string
  display_name: string
  /** the member this voice is linked to */
  account_id: string | null
  source: VoiceIdentitySource
  /** 1 once a person named it: the engine no longer renames it */
  name_is_manual: number
  /** JSON number[] or null */
  centroid: string | null
  /** JSON string[]: identities merged into this one */
  merged_from: string
  revision: number
  created_at: string
  updated_at: string
}

export type VoiceSpeakerState = 'unnamed' | 'named' | 'suggested' | 'opted-out'

export type VoiceSpeakerTable = {
  session_id: string
  speaker_id: string
  workspace_id: string
  /** JSON number[]: running unit-length mean of the speaker's utterance embeddings; null once deleted */
  embedding: string | null
  /** utterances in the running mean */
  embedding_weight: number
  state: VoiceSpeakerState
  identity_id: string | null
  suggested_identity_id: string | null
  score: number | null
  /** 1 when a person placed it (split, delete): the engine leaves it alone */
  is_manual: number
  updated_at: string
}

export type VoiceOptOutTable = {
  workspace_id: string
  account_id: string
  created_at: string
}

export type VoiceTables = {
  voice_profiles: VoiceProfileTable
  voice_enrollments: VoiceEnrollmentTable
  voice_identities: VoiceIdentityTable
  voice_speakers: VoiceSpeakerTable
  voice_opt_outs: VoiceOptOutTable
}
