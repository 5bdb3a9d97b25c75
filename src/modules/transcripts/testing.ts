// Test helper of the transcripts module: final segments written straight to the table, for tests
// of modules that read transcripts (work objects, extraction, search, summaries, shares).
import type { Harness } from '../../../test/harness.ts'
import { newId, nowIso } from '../../platform/ids.ts'
import { insertSegment, upsertSpeaker } from './repo.ts'

export type SeedSegment = { text: string; speakerId?: string; startMs?: number; endMs?: number; language?: string }

/** Inserts final segments for a session, one after another in time; answers their ids in order. */
export async function seedSegments(h: Harness, session: { id: string }, segments: SeedSegment[]): Promise<string[]> {
  const row = await h.database.db.selectFrom('capture_sessions').select('workspace_id').where('id', '=', session.id).executeTakeFirstOrThrow()
  const ids: string[] = []
  let clock = 0
  for (const segment of segments) {
    const startMs = segment.startMs ?? clock
    const endMs = segment.endMs ?? startMs + 2000
    clock = endMs + 500
    const id = newId('seg')
    const now = nowIso()
    await insertSegment(h.database.db, {
      id, session_id: session.id, workspace_id: row.workspace_id, start_ms: startMs, end_ms: endMs,
      speaker_id: segment.speakerId ?? 'spk_1', text: segment.text, status: 'final', source: 'server',
      engine: 'seed', language: segment.language ?? 'en', confidence: 0.9, words: null, created_at: now, updated_at: now,
    })
    ids.push(id)
  }
  return ids
}

/** A session speaker ("Speaker N") written straight to the table. */
export async function seedSpeaker(h: Harness, session: { id: string }, speakerId = 'spk_1') {
  const now = nowIso()
  await upsertSpeaker(h.database.db, { session_id: session.id, speaker_id: speakerId, label: `Speaker ${speakerId.replace(/^spk_/, '')}`, pitch_hz: null, created_at: now, updated_at: now })
  return speakerId
}
