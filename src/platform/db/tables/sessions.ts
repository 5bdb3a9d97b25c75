// Row types of the tables owned by the sessions module (conversations, capture sessions, audio chunks).
// Only that owner queries them; other modules go through its index.ts (docs/ARCHITECTURE.md).
import type { ColumnType } from 'kysely'

export type ConversationTable = {
  id: string
  workspace_id: string
  session_id: string
  created_at: string
}

import type { CaptureMode, CaptureSessionState } from '../../../domain/vocabulary.ts'

export type { CaptureMode, CaptureSessionState }

export type CaptureSessionTable = {
  id: string
  workspace_id: string
  account_id: string
  conversation_id: string
  project_id: string | null
  title: string
  capture_mode: CaptureMode
  state: CaptureSessionState
  failure_reason: string | null
  archived_at: string | null
  started_at: string
  ended_at: string | null
  chunk_count: ColumnType<number, number | undefined, number>
  audio_bytes: ColumnType<number, number | undefined, number>
  last_sequence: ColumnType<number, number | undefined, number>
  progress_event_at: string | null
  /** openai | whisper | pocketsphinx | client (added by 0006) */
  transcription_engine: ColumnType<string | null, string | null | undefined, string | null>
  created_at: string
  updated_at: string
}

export type AudioChunkTable = {
  session_id: string
  /** the client's X-Service-Chunk-ID */
  chunk_id: string
  sequence: number
  content_type: string
  byte_size: number
  sha256: string
  blob_key: string
  received_at: string
}

export type SessionsTables = {
  conversations: ConversationTable
  capture_sessions: CaptureSessionTable
  audio_chunks: AudioChunkTable
}
