// Row types of the tables owned by the transcripts module.
// Only that owner queries them; other modules go through its index.ts (docs/ARCHITECTURE.md).

export type TranscriptSegmentStatus = 'partial' | 'final'
/** server: transcribed from uploaded audio; client: recognised on the client and pushed over the socket */
export type TranscriptSegmentSource = 'server' | 'client'

export type TranscriptSegmentTable = {
  id: string
  session_id: string
  workspace_id: string
  start_ms: number
  end_ms: number
  speaker_id: string | null
  text: string
  status: TranscriptSegmentStatus
  source: TranscriptSegmentSource
  engine: string | null
  language: string | null
  confidence: number | null
  /** JSON text: [{word, startMs, endMs, confidence}] */
  words: string | null
  created_at: string
  updated_at: string
}

export type SessionSpeakerTable = {
  session_id: string
  speaker_id: string
  label: string
  pitch_hz: number | null
  created_at: string
  updated_at: string
}

export type TranscriptionStateTable = {
  session_id: string
  version: number
  processed_sequence: number
  audio_ms: number
  tail_blob_key: string | null
  tail_start_ms: number
  open_segment_id: string | null
  stream_first_sequence: number | null
  stream_samples: number
  engine: string | null
  last_error: string | null
  updated_at: string
}

export type TranscriptsTables = {
  transcript_segments: TranscriptSegmentTable
  session_speakers: SessionSpeakerTable
  transcription_state: TranscriptionStateTable
}
