// Rows → API shapes of transcripts (also the payloads of transcript.partial / transcript.final).
import type { SegmentRow, SpeakerRow } from './repo.ts'

export type TranscriptWord = { word: string; startMs: number; endMs: number; confidence?: number }

export function presentSegment(row: SegmentRow) {
  return {
    id: row.id,
    sessionId: row.session_id,
    startMs: row.start_ms,
    endMs: row.end_ms,
    ...(row.speaker_id ? { speakerId: row.speaker_id } : {}),
    text: row.text,
    status: row.status,
    source: row.source,
    ...(row.engine ? { engine: row.engine } : {}),
    ...(row.language ? { language: row.language } : {}),
    ...(row.confidence !== null ? { confidence: row.confidence } : {}),
    ...(row.words ? { words: JSON.parse(row.words) as TranscriptWord[] } : {}),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}

export type TranscriptSegment = ReturnType<typeof presentSegment>

export const presentSpeaker = (row: SpeakerRow) => ({
  speakerId: row.speaker_id,
  label: row.label,
  ...(row.pitch_hz !== null ? { pitchHz: Math.round(row.pitch_hz) } : {}),
})
