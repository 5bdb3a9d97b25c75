// Candidate transcript segments for a search (the search and answers modules call it through index.ts), ranked by the database: bm25 over the FTS5 trigram
// index (SQLite) or ts_rank over the full-text index with substring matches (PostgreSQL).
import { sql } from 'kysely'
import { LRUCache } from 'lru-cache'
import type { Database } from '../../platform/db/index.ts'
import { ftsExpression, likePattern, type Terms } from '../../platform/db/text-search.ts'

export type SegmentHit = { id: string; session_id: string; text: string; score: number }

export const CANDIDATES = 300

/** A term with no letter case (Chinese, digits) is found with instr(), which skips lower()-ing every row. */
const caseless = (term: string) => term.toLowerCase() === term.toUpperCase()
const contains = (column: string, term: string) => caseless(term)
  ? sql<boolean>`instr(${sql.ref(column)}, ${term}) > 0`
  : sql<boolean>`lower(${sql.ref(column)}) like ${likePattern(term)} escape '\\'`

export async function segmentHits(database: Database, workspaceId: string, terms: Terms): Promise<SegmentHit[]> {
  const { db } = database
  if (database.dialect === 'sqlite') {
    if (terms.long.length > 0) {
      const short = terms.short.map((term) => sql`and ${contains('s.text', term)}`)
      const query = sql<SegmentHit>`
        select s.id, s.session_id, s.text, -bm25(transcript_fts) as score
        from transcript_fts join transcript_fts_keys k on k.key = transcript_fts.rowid join transcript_segments s on s.id = k.segment_id
        where transcript_fts match ${ftsExpression(terms.long)} and s.workspace_id = ${workspaceId} ${sql.join(short, sql` `)}
        order by bm25(transcript_fts) limit ${CANDIDATES}`
      // Ranking every match of a common word takes a while: off the main thread when it can be.
      const rows = database.readPool ? await database.readPool.all<SegmentHit>(query.compile(db)) : (await query.execute(db)).rows
      return rows.map((row) => ({ ...row, score: Number(row.score) }))
    }
    let query = db.selectFrom('transcript_segments as s').select(['s.id', 's.session_id', 's.text']).where('s.workspace_id', '=', workspaceId)
    for (const term of terms.short) query = query.where(contains('s.text', term))
    // No ORDER BY: the scan stops at the first CANDIDATES matches.
    const limited = query.limit(CANDIDATES)
    const rows = database.readPool ? await database.readPool.all<Omit<SegmentHit, 'score'>>(limited.compile()) : await limited.execute()
    return rows.map((row) => ({ ...row, score: 1 }))
  }
  const pgContains = (term: string) => (caseless(term) ? sql<boolean>`strpos(s.text, ${term}) > 0` : sql<boolean>`s.text ilike ${likePattern(term)}`)
  if (terms.long.length === 0) {
    // Shorter than a trigram (e.g. 预算): no index helps; the scan stops at the first candidates.
    let query = db.selectFrom('transcript_segments as s').select(['s.id', 's.session_id', 's.text']).where('s.workspace_id', '=', workspaceId)
    for (const term of terms.short) query = query.where(pgContains(term))
    return (await query.limit(CANDIDATES).execute()).map((row) => ({ ...row, score: 1 }))
  }
  const tsquery = sql`plainto_tsquery('simple', ${terms.long.join(' ')})`
  let query = db.selectFrom('transcript_segments as s')
    .select(['s.id', 's.session_id', 's.text', sql<number>`ts_rank(to_tsvector('simple', s.text), ${tsquery}) + 0.1`.as('score')])
    .where('s.workspace_id', '=', workspaceId)
  // Whole words through the full-text index, or substrings (Chinese, word parts) through pg_trgm.
  query = query.where((eb) => eb.or([
    sql<boolean>`to_tsvector('simple', s.text) @@ ${tsquery}`,
    eb.and(terms.long.map((term) => sql<boolean>`s.text ilike ${likePattern(term)}`)),
  ]))
  for (const term of terms.short) query = query.where(pgContains(term))
  return (await query.orderBy('score', 'desc').limit(CANDIDATES).execute()).map((row) => ({ ...row, score: Number(row.score) }))
}


/** A word in more segments than this says little about where an answer is (in this workspace). */
export const FREQUENT = 600

/** A word's frequency changes slowly: counted once per workspace every few minutes, per process. */
const frequency = new LRUCache<string, Promise<number>>({ max: 20_000, ttl: 5 * 60_000 })

/**
 * In how many segments of the workspace each word is, counted up to FREQUENT (a bounded count that
 * stops there; cached). Words shorter than a trigram are not counted (undefined).
 */
export function segmentFrequencies(database: Database, workspaceId: string, words: string[]): Promise<(number | undefined)[]> {
  return Promise.all(words.map((word) => {
    if ([...word].length < 3) return undefined
    const key = `${database.dialect}|${workspaceId}|${word}`
    let counted = frequency.get(key)
    if (!counted) {
      counted = countUpToFrequent(database, workspaceId, word)
      frequency.set(key, counted)
      counted.catch(() => frequency.delete(key))
    }
    return counted
  }))
}

async function countUpToFrequent(database: Database, workspaceId: string, word: string): Promise<number> {
  const { db } = database
  if (database.dialect === 'sqlite') {
    const query = sql<{ n: number }>`select count(*) as n from (select 1 from transcript_fts join transcript_fts_keys k on k.key = transcript_fts.rowid
      join transcript_segments s on s.id = k.segment_id where transcript_fts match ${ftsExpression([word])} and s.workspace_id = ${workspaceId} limit ${FREQUENT})`
    const rows = database.readPool ? await database.readPool.all<{ n: number }>(query.compile(db)) : (await query.execute(db)).rows
    return Number(rows[0]?.n ?? 0)
  }
  const query = sql<{ n: number }>`select count(*) as n from (select 1 from transcript_segments s where s.workspace_id = ${workspaceId}
    and (to_tsvector('simple', s.text) @@ plainto_tsquery('simple', ${word}) or s.text ilike ${likePattern(word)}) limit ${FREQUENT}) found`
  return Number((await query.execute(db)).rows[0]?.n ?? 0)
}

/**
 * Segments holding the question's words, best first by the database's ranking: FTS5 bm25 (SQLite)
 * or ts_rank with substring matches (PostgreSQL). Any selective word finds a segment (OR); words
 * in very many segments only narrow (AND) when no selective word is left, so a common word never
 * makes the database rank half the workspace; those matches come latest first, unranked. Words shorter than a trigram are only used when there
 * is no longer one (a scan that stops early).
 */
export async function anySegmentHits(database: Database, workspaceId: string, words: string[], limit = 120, sessionIds?: readonly string[]): Promise<SegmentHit[]> {
  const { db } = database
  // Limited to these sessions (a project's question); none given: the whole workspace.
  if (sessionIds && sessionIds.length === 0) return []
  const inSessions = sessionIds ? sql`and s.session_id in (${sql.join(sessionIds)})` : sql``
  const long = words.filter((word) => [...word].length >= 3)
  const short = words.filter((word) => [...word].length < 3)
  if (long.length === 0 && short.length === 0) return []
  if (long.length === 0) {
    const scan = db.selectFrom('transcript_segments as s').select(['s.id', 's.session_id', 's.text']).where('s.workspace_id', '=', workspaceId)
      .$if(sessionIds !== undefined, (query) => query.where('s.session_id', 'in', sessionIds!))
      .where((eb) => eb.or(short.map((word) => (database.dialect === 'sqlite' ? contains('s.text', word) : sql<boolean>`s.text ilike ${likePattern(word)}`))))
      .limit(limit)
    const rows = database.dialect === 'sqlite' && database.readPool ? await database.readPool.all<Omit<SegmentHit, 'score'>>(scan.compile()) : await scan.execute()
    return rows.map((row) => ({ ...row, score: 1 }))
  }
  const counts = await segmentFrequencies(database, workspaceId, long)
  const selective = long.filter((_, index) => (counts[index] ?? 0) < FREQUENT)
  const mode = selective.length > 0 ? 'any' : 'all'
  const chosen = selective.length > 0 ? selective : long
  if (database.dialect === 'sqlite') {
    const expression = chosen.map((word) => `"${word.replaceAll('"', '""')}"`).join(mode === 'any' ? ' OR ' : ' AND ')
    // Only common words: every match holds them all and bm25 over thousands of them costs more than
    // it tells (length, repetition); the latest matches are taken (key order is insertion order).
    const order = mode === 'any' ? sql`order by bm25(transcript_fts)` : sql`order by transcript_fts.rowid desc`
    const score = mode === 'any' ? sql`-bm25(transcript_fts)` : sql`1`
    const query = sql<SegmentHit>`
      select s.id, s.session_id, s.text, ${score} as score
      from transcript_fts join transcript_fts_keys k on k.key = transcript_fts.rowid join transcript_segments s on s.id = k.segment_id
      where transcript_fts match ${expression} and s.workspace_id = ${workspaceId} ${inSessions}
      ${order} limit ${limit}`
    const rows = database.readPool ? await database.readPool.all<SegmentHit>(query.compile(db)) : (await query.execute(db)).rows
    return rows.map((row) => ({ ...row, score: Number(row.score) }))
  }
  const lexemes = chosen.map((word) => `'${word.replace(/['\\:&|!()<>*]/g, ' ').trim()}'`).filter((word) => word !== "''")
  const tsquery = sql`to_tsquery('simple', ${lexemes.join(mode === 'any' ? ' | ' : ' & ') || "''"})`
  const substrings = chosen.map((word) => sql<boolean>`s.text ilike ${likePattern(word)}`)
  const matches = db.selectFrom('transcript_segments as s')
    .where('s.workspace_id', '=', workspaceId)
    .$if(sessionIds !== undefined, (query) => query.where('s.session_id', 'in', sessionIds!))
    .where((eb) => eb.or([sql<boolean>`to_tsvector('simple', s.text) @@ ${tsquery}`, mode === 'any' ? eb.or(substrings) : eb.and(substrings)]))
  // Only common words: the latest matches, as on SQLite (ts_rank re-parses every matching text).
  const rows = mode === 'any'
    ? await matches.select(['s.id', 's.session_id', 's.text', sql<number>`ts_rank(to_tsvector('simple', s.text), ${tsquery}) + 0.1`.as('score')]).orderBy('score', 'desc').limit(limit).execute()
    : await matches.select(['s.id', 's.session_id', 's.text', sql<number>`1`.as('score')]).orderBy('s.created_at', 'desc').orderBy('s.id', 'desc').limit(limit).execute()
  return rows.map((row) => ({ ...row, score: Number(row.score) }))
}

/** How far around a segment its neighbours are looked for. */
const NEIGHBOUR_WINDOW_MS = 30_000

export type NeighbourSegment = { id: string; session_id: string; start_ms: number; text: string }

/**
 * Each given segment of the workspace with the final segments around it in its session (`before`
 * earlier, `after` later, within 30 s), in time order: the context a passage is read in (answers).
 * One query, on a read worker when there is one.
 */
export async function segmentNeighbourhoods(database: Database, workspaceId: string, ids: readonly string[], before = 2, after = 2) {
  if (ids.length === 0) return []
  const query = database.db.selectFrom('transcript_segments as c')
    .innerJoin('transcript_segments as n', (join) => join.onRef('n.session_id', '=', 'c.session_id')
      .on(sql<boolean>`n.start_ms between c.start_ms - ${NEIGHBOUR_WINDOW_MS} and c.start_ms + ${NEIGHBOUR_WINDOW_MS}`)
      .on((eb) => eb.or([eb('n.status', '=', 'final'), eb('n.id', '=', eb.ref('c.id'))])))
    .select(['c.id as centre_id', 'n.id', 'n.session_id', 'n.start_ms', 'n.text'])
    .where('c.workspace_id', '=', workspaceId).where('c.id', 'in', [...new Set(ids)])
    .orderBy('c.id').orderBy('n.start_ms').orderBy('n.id')
  type Row = NeighbourSegment & { centre_id: string }
  const rows = database.dialect === 'sqlite' && database.readPool ? await database.readPool.all<Row>(query.compile()) : await query.execute()
  const byCentre = Map.groupBy(rows.map((row) => ({ ...row, start_ms: Number(row.start_ms) })), (row) => row.centre_id)
  return ids.flatMap((id) => {
    const around = byCentre.get(id)
    const at = around?.findIndex((row) => row.id === id) ?? -1
    if (!around || at === -1) return []
    const segments: NeighbourSegment[] = around.slice(Math.max(0, at - before), at + after + 1).map(({ id, session_id, start_ms, text }) => ({ id, session_id, start_ms, text }))
    return [{ centre: segments[Math.min(at, before)]!, segments }]
  })
}

/**
 * The texts of a workspace's latest final segments (newest sessions first, at most `limit`): a sample
 * of what language its meetings are in (answers says so when a question's language is not among them).
 */
export async function latestSegmentTexts(database: Database, workspaceId: string, limit = 200): Promise<string[]> {
  const query = database.db.selectFrom('transcript_segments').select('text')
    .where('workspace_id', '=', workspaceId).where('status', '=', 'final').orderBy('session_id', 'desc').limit(limit)
  const rows = database.dialect === 'sqlite' && database.readPool ? await database.readPool.all<{ text: string }>(query.compile()) : await query.execute()
  return rows.map((row) => row.text)
}
