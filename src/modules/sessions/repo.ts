// Kysely queries of the sessions module. Every read filters by workspace.
import { sql, type Insertable, type Selectable, type Updateable } from 'kysely'
import { forUpdate } from '../../platform/db/dialect.ts'
import type { Db, DialectName } from '../../platform/db/index.ts'
import type { AudioChunkTable, CaptureSessionState, CaptureSessionTable, Tables } from '../../platform/db/tables.ts'
import type { CursorKey } from '../../platform/http/pagination.ts'
import { likePattern, type Terms } from '../../platform/db/text-search.ts'
import type { Executor } from '../../platform/realtime/types.ts'

export type SessionRow = Selectable<CaptureSessionTable>

/** Counters as numbers whatever the driver hands back. */
export const toSessionRow = (row: SessionRow): SessionRow => ({
  ...row, chunk_count: Number(row.chunk_count), audio_bytes: Number(row.audio_bytes), last_sequence: Number(row.last_sequence),
})

export async function findSession(db: Executor, workspaceId: string, sessionId: string) {
  const row = await db.selectFrom('capture_sessions').selectAll()
    .where('id', '=', sessionId).where('workspace_id', '=', workspaceId).executeTakeFirst()
  return row ? toSessionRow(row) : undefined
}

/** The session, its row locked until the transaction ends (PostgreSQL; SQLite's write lock already serialises). */
export async function lockSession(db: Executor, dialect: DialectName, sessionId: string, workspaceId?: string) {
  let query = db.selectFrom('capture_sessions').selectAll().where('id', '=', sessionId)
  if (workspaceId !== undefined) query = query.where('workspace_id', '=', workspaceId)
  const row = await forUpdate(dialect, query).executeTakeFirst()
  return row ? toSessionRow(row) : undefined
}

export async function findRecordingSessionOf(db: Executor, accountId: string) {
  const row = await db.selectFrom('capture_sessions').selectAll()
    .where('account_id', '=', accountId).where('state', '=', 'recording').executeTakeFirst()
  return row ? toSessionRow(row) : undefined
}

export const findConversation = (db: Db | Executor, workspaceId: string, conversationId: string) =>
  db.selectFrom('conversations').selectAll()
    .where('id', '=', conversationId).where('workspace_id', '=', workspaceId).executeTakeFirst()

export async function insertSession(db: Executor, session: Insertable<CaptureSessionTable> & { id: string; workspace_id: string; conversation_id: string }, createdAt: string) {
  await db.insertInto('conversations').values({
    id: session.conversation_id, workspace_id: session.workspace_id, session_id: session.id, created_at: createdAt,
  }).execute()
  await db.insertInto('capture_sessions').values(session).execute()
}

export async function updateSession(db: Executor, sessionId: string, values: Updateable<CaptureSessionTable>) {
  const row = await db.updateTable('capture_sessions').set(values).where('id', '=', sessionId).returningAll().executeTakeFirstOrThrow()
  return toSessionRow(row)
}

export async function listSessions(db: Executor, workspaceId: string, filter: {
  projectId: string | undefined; archived: boolean; after: CursorKey | undefined; limit: number
}) {
  let query = db.selectFrom('capture_sessions').selectAll().where('workspace_id', '=', workspaceId)
    .where('archived_at', filter.archived ? 'is not' : 'is', null)
  if (filter.projectId !== undefined) query = query.where('project_id', '=', filter.projectId)
  if (filter.after) {
    const [createdAt, id] = filter.after as [string, string]
    query = query.where((eb) => eb.or([eb('created_at', '<', createdAt), eb.and([eb('created_at', '=', createdAt), eb('id', '<', id)])]))
  }
  const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(filter.limit + 1).execute()
  return rows.map(toSessionRow)
}

export const findChunk = (db: Executor, sessionId: string, chunkId: string) =>
  db.selectFrom('audio_chunks').selectAll().where('session_id', '=', sessionId).where('chunk_id', '=', chunkId).executeTakeFirst()

/** The session (in the workspace) and, when it exists, its chunk with this id: one round trip. */
export const findSessionWithChunk = (db: Executor, workspaceId: string, sessionId: string, chunkId: string) =>
  db.selectFrom('capture_sessions as s')
    .leftJoin('audio_chunks as c', (join) => join.onRef('c.session_id', '=', 's.id').on('c.chunk_id', '=', chunkId))
    .select(['s.id', 's.account_id', 's.state', 'c.sequence as chunk_sequence'])
    .where('s.id', '=', sessionId).where('s.workspace_id', '=', workspaceId)
    .executeTakeFirst()

/**
 * Counts a chunk into a recording session and hands out its sequence (the client's, or the next
 * one). The row lock it takes orders concurrent chunks and `end` of one session. Undefined when the
 * session is no longer recording.
 */
export async function countChunkIn(db: Executor, sessionId: string, byteSize: number, clientSequence: number | undefined, progressBefore: string, now: string) {
  const nextSequence = clientSequence === undefined
    ? sql<number>`last_sequence + 1`
    : sql<number>`case when last_sequence < ${clientSequence} then ${clientSequence} else last_sequence end`
  const row = await db.updateTable('capture_sessions')
    .set({
      chunk_count: sql<number>`chunk_count + 1`,
      audio_bytes: sql<number>`audio_bytes + ${byteSize}`,
      last_sequence: nextSequence,
      progress_event_at: sql<string>`case when progress_event_at is null or progress_event_at < ${progressBefore} then ${now} else progress_event_at end`,
    })
    .where('id', '=', sessionId).where('state', '=', 'recording')
    .returningAll().executeTakeFirst()
  return row ? toSessionRow(row) : undefined
}

/** Inserts the chunk unless one with its id exists; false when it did (a concurrent duplicate). */
export async function insertChunk(db: Executor, chunk: AudioChunkTable): Promise<boolean> {
  const result = await db.insertInto('audio_chunks').values(chunk)
    .onConflict((oc) => oc.columns(['session_id', 'chunk_id']).doNothing()).executeTakeFirst()
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0
}

export const listChunks = (db: Executor, sessionId: string, afterSequence: number, limit: number) =>
  db.selectFrom('audio_chunks').selectAll().where('session_id', '=', sessionId).where('sequence', '>', afterSequence)
    .orderBy('sequence', 'asc').limit(limit + 1).execute()

const TITLE_CANDIDATES = 300

/** Sessions of the workspace whose title holds every term. */
export async function findSessionsByTitleTerms(db: Executor, workspaceId: string, terms: Terms) {
  let query = db.selectFrom('capture_sessions').select(['id', 'title']).where('workspace_id', '=', workspaceId)
  for (const term of terms.all) query = query.where(sql<boolean>`lower(title) like ${likePattern(term)} escape '\\'`)
  return query.limit(TITLE_CANDIDATES).execute()
}

/** The sessions of the workspace with these ids, archived ones or the others. */
export const listSessionsByIds = (db: Executor, workspaceId: string, ids: string[], archived: boolean) =>
  ids.length === 0 ? Promise.resolve([]) : db.selectFrom('capture_sessions').selectAll().where('workspace_id', '=', workspaceId).where('id', 'in', ids)
    .where('archived_at', archived ? 'is not' : 'is', null).execute()

/** A session by id alone, for jobs that were given it (callers that serve a person use findSession). */
export const findSessionById = (db: Executor, sessionId: string) =>
  db.selectFrom('capture_sessions').selectAll().where('id', '=', sessionId).executeTakeFirst()

/** Stored chunks with sequence in [first, last], in order. */
export const listChunkRange = (db: Executor, sessionId: string, first: number, last: number) =>
  db.selectFrom('audio_chunks').selectAll().where('session_id', '=', sessionId)
    .where('sequence', '>=', first).where('sequence', '<=', last).orderBy('sequence').execute()

/**
 * The state of the session whose id is in `sessionIdColumn` of another module's query, as a scalar
 * subquery: that module reads it in the same statement without naming this module's table.
 */
export const sessionStateColumn = (sessionIdColumn: string) =>
  sql<CaptureSessionState | null>`(select cs.state from capture_sessions cs where cs.id = ${sql.ref(sessionIdColumn)})`

/** The state of each of these sessions (any workspace: callers hold rows already scoped). */
export async function sessionStates(db: Executor, sessionIds: string[]): Promise<Map<string, CaptureSessionState>> {
  if (sessionIds.length === 0) return new Map()
  const rows = await db.selectFrom('capture_sessions').select(['id', 'state']).where('id', 'in', sessionIds).execute()
  return new Map(rows.map((row) => [row.id, row.state]))
}
