// Kysely queries over transcript segments and session speakers. Every read that starts from an
// id the client sent filters by workspace.
import type { Insertable, Selectable, Updateable } from 'kysely'
import type { Db } from '../../platform/db/index.ts'
import type { SessionSpeakerTable, TranscriptSegmentTable } from '../../platform/db/tables.ts'
import type { CursorKey } from '../../platform/http/pagination.ts'
import type { Executor } from '../../platform/realtime/types.ts'

export type SegmentRow = Selectable<TranscriptSegmentTable>
export type SpeakerRow = Selectable<SessionSpeakerTable>

const toSegmentRow = (row: SegmentRow): SegmentRow => ({
  ...row,
  start_ms: Number(row.start_ms),
  end_ms: Number(row.end_ms),
  confidence: row.confidence === null ? null : Number(row.confidence),
})

export async function insertSegment(db: Executor, row: Insertable<TranscriptSegmentTable>) {
  await db.insertInto('transcript_segments').values(row).execute()
}

export async function updateSegment(db: Executor, id: string, changes: Updateable<TranscriptSegmentTable>) {
  await db.updateTable('transcript_segments').set(changes).where('id', '=', id).execute()
}

export async function findSegment(db: Db | Executor, workspaceId: string, segmentId: string) {
  const row = await db.selectFrom('transcript_segments').selectAll()
    .where('id', '=', segmentId).where('workspace_id', '=', workspaceId).executeTakeFirst()
  return row ? toSegmentRow(row) : undefined
}

/** The final segments of the workspace among `ids`, whatever their session. */
export async function findWorkspaceSegments(db: Db | Executor, workspaceId: string, ids: readonly string[]) {
  if (ids.length === 0) return []
  const rows = await db.selectFrom('transcript_segments').selectAll()
    .where('workspace_id', '=', workspaceId).where('id', 'in', [...new Set(ids)]).execute()
  return rows.map(toSegmentRow)
}

/** Who said each of the workspace's segments among `ids`, as the session names them now ("Speaker 2", "Dana Li"); segments without a speaker are left out. */
export async function segmentSpeakerLabels(db: Db | Executor, workspaceId: string, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map()
  const rows = await db.selectFrom('transcript_segments as segment')
    .innerJoin('session_speakers as speaker', (join) => join.onRef('speaker.session_id', '=', 'segment.session_id').onRef('speaker.speaker_id', '=', 'segment.speaker_id'))
    .select(['segment.id as id', 'speaker.label as label'])
    .where('segment.workspace_id', '=', workspaceId).where('segment.id', 'in', [...new Set(ids)]).execute()
  return new Map(rows.map((row) => [row.id, row.label]))
}

/** The segments of one session among `ids` (ids of other sessions or workspaces are left out). */
export async function findSessionSegments(db: Db | Executor, sessionId: string, ids: readonly string[]) {
  if (ids.length === 0) return []
  const rows = await db.selectFrom('transcript_segments').selectAll()
    .where('session_id', '=', sessionId).where('id', 'in', [...new Set(ids)]).execute()
  return rows.map(toSegmentRow)
}

export type SegmentPage = { after?: CursorKey; limit: number; status?: SegmentRow['status'] }

/** A session's segments in time order (start_ms, id); `limit + 1` rows for paginate(). */
export async function listSegments(db: Db | Executor, sessionId: string, page: SegmentPage) {
  let query = db.selectFrom('transcript_segments').selectAll().where('session_id', '=', sessionId)
  if (page.status) query = query.where('status', '=', page.status)
  if (page.after) {
    const [startMs, id] = page.after as [number, string]
    query = query.where((eb) => eb.or([
      eb('start_ms', '>', startMs),
      eb.and([eb('start_ms', '=', startMs), eb('id', '>', id)]),
    ]))
  }
  const rows = await query.orderBy('start_ms').orderBy('id').limit(page.limit + 1).execute()
  return rows.map(toSegmentRow)
}

/** Every final segment of a session in time order (extraction, summaries, search indexing). */
export async function finalSegments(db: Db | Executor, sessionId: string) {
  const rows = await db.selectFrom('transcript_segments').selectAll()
    .where('session_id', '=', sessionId).where('status', '=', 'final')
    .orderBy('start_ms').orderBy('id').execute()
  return rows.map(toSegmentRow)
}

export async function listSpeakers(db: Db | Executor, sessionId: string) {
  const rows = await db.selectFrom('session_speakers').selectAll()
    .where('session_id', '=', sessionId).orderBy('created_at').orderBy('speaker_id').execute()
  return rows.map((row) => ({ ...row, pitch_hz: row.pitch_hz === null ? null : Number(row.pitch_hz) }))
}

export async function upsertSpeaker(db: Executor, row: Insertable<SessionSpeakerTable>) {
  await db.insertInto('session_speakers').values(row)
    .onConflict((oc) => oc.columns(['session_id', 'speaker_id']).doUpdateSet({
      label: (eb) => eb.ref('excluded.label'),
      pitch_hz: (eb) => eb.ref('excluded.pitch_hz'),
      updated_at: (eb) => eb.ref('excluded.updated_at'),
    }))
    .execute()
}

/** How far each session's final transcript reaches (its largest segment end, ms); sessions without one are left out. */
export async function transcriptReach(db: Db | Executor, sessionIds: readonly string[]): Promise<Map<string, number>> {
  if (sessionIds.length === 0) return new Map()
  const rows = await db.selectFrom('transcript_segments')
    .select((eb) => ['session_id', eb.fn.max<number>('end_ms').as('end_ms')])
    .where('session_id', 'in', [...sessionIds]).where('status', '=', 'final')
    .groupBy('session_id').execute()
  return new Map(rows.map((row) => [row.session_id, Number(row.end_ms)]))
}

/** How many final segments the session has. */
export async function countFinalSegments(db: Executor, sessionId: string): Promise<number> {
  const row = await db.selectFrom('transcript_segments').select((eb) => eb.fn.countAll<number>().as('n'))
    .where('session_id', '=', sessionId).where('status', '=', 'final').executeTakeFirstOrThrow()
  return Number(row.n)
}
