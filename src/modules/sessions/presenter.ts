// Rows → API shapes of the sessions module.
import type { Config } from '../../config.ts'
import type { Tables } from '../../platform/db/tables.ts'
import type { SessionRow } from './repo.ts'

/** `transcriptEndMs`: how far its final transcript reaches, where the caller read it (lists and reads of sessions). */
export function presentSession(row: SessionRow, transcriptEndMs?: number) {
  return {
    id: row.id,
    state: row.state,
    captureMode: row.capture_mode,
    title: row.title,
    ...(row.project_id ? { projectId: row.project_id } : {}),
    conversationId: row.conversation_id,
    startedAt: row.started_at,
    ...(row.ended_at ? { endedAt: row.ended_at } : {}),
    ...(row.archived_at ? { archivedAt: row.archived_at } : {}),
    chunkCount: Number(row.chunk_count),
    audioBytes: Number(row.audio_bytes),
    ...(row.failure_reason ? { failureReason: row.failure_reason } : {}),
    transcriptionEngine: row.transcription_engine ?? 'client',
    ...(transcriptEndMs !== undefined ? { transcriptEndMs } : {}),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}

export type SessionSnapshot = ReturnType<typeof presentSession>

/** The conversation's WebSocket URL on PUBLIC_URL: http → ws, https → wss. */
export function websocketUrls(config: Config, conversationId: string) {
  const base = config.publicBase.replace(/^http/, 'ws')
  const websocketURL = `${base}/v1/conversations/${conversationId}/events`
  return { websocketURL, workWebsocketURL: `${websocketURL}?channel=work` }
}

export const presentChunk = (row: Tables['audio_chunks']) => ({
  chunkId: row.chunk_id,
  sequence: Number(row.sequence),
  contentType: row.content_type,
  byteSize: Number(row.byte_size),
  sha256: row.sha256,
  receivedAt: row.received_at,
})
