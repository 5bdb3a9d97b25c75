// Candidate segments and titles for a search, ranked by the database: bm25 over the FTS5 trigram
// index (SQLite) or ts_rank over the full-text index with substring matches (PostgreSQL).
import { sql } from 'kysely'
import type { Database } from '../../platform/db/index.ts'
import { ftsExpression, likePattern, type Terms } from './query.ts'

export type SegmentHit = { id: string; session_id: string; text: string; score: number }

const CANDIDATES = 300

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

/** Sessions of the workspace whose title holds every term. */
export async function titleHits(database: Database, workspaceId: string, terms: Terms) {
  let query = database.db.selectFrom('capture_sessions').select(['id', 'title']).where('workspace_id', '=', workspaceId)
  for (const term of terms.all) query = query.where(sql<boolean>`lower(title) like ${likePattern(term)} escape '\\'`)
  return query.limit(CANDIDATES).execute()
}

/**
 * Segments holding ANY of the words (answers rank them further themselves), best first by the
 * database's ranking: FTS5 bm25 (SQLite) or ts_rank with substring matches (PostgreSQL). Words
 * shorter than a trigram are only used when there is no longer one (a scan that stops early).
 */
export async function anySegmentHits(database: Database, workspaceId: string, words: string[], limit = 120): Promise<SegmentHit[]> {
  const { db } = database
  const long = words.filter((word) => [...word].length >= 3)
  const short = words.filter((word) => [...word].length < 3)
  if (long.length === 0 && short.length === 0) return []
  if (long.length === 0) {
    const scan = db.selectFrom('transcript_segments as s').select(['s.id', 's.session_id', 's.text']).where('s.workspace_id', '=', workspaceId)
      .where((eb) => eb.or(short.map((word) => (database.dialect === 'sqlite' ? contains('s.text', word) : sql<boolean>`s.text ilike ${likePattern(word)}`))))
      .limit(limit)
    const rows = database.dialect === 'sqlite' && database.readPool ? await database.readPool.all<Omit<SegmentHit, 'score'>>(scan.compile()) : await scan.execute()
    return rows.map((row) => ({ ...row, score: 1 }))
  }
  if (database.dialect === 'sqlite') {
    const expression = long.map((word) => `"${word.replaceAll('"', '""')}"`).join(' OR ')
    const query = sql<SegmentHit>`
      select s.id, s.session_id, s.text, -bm25(transcript_fts) as score
      from transcript_fts join transcript_fts_keys k on k.key = transcript_fts.rowid join transcript_segments s on s.id = k.segment_id
      where transcript_fts match ${expression} and s.workspace_id = ${workspaceId}
      order by bm25(transcript_fts) limit ${limit}`
    const rows = database.readPool ? await database.readPool.all<SegmentHit>(query.compile(db)) : (await query.execute(db)).rows
    return rows.map((row) => ({ ...row, score: Number(row.score) }))
  }
  const tsquery = sql`to_tsquery('simple', ${long.map((word) => `'${word.replace(/['\\:&|!()<>*]/g, ' ').trim()}'`).filter((word) => word !== "''").join(' | ') || "''"})`
  const rows = await db.selectFrom('transcript_segments as s')
    .select(['s.id', 's.session_id', 's.text', sql<number>`ts_rank(to_tsvector('simple', s.text), ${tsquery}) + 0.1`.as('score')])
    .where('s.workspace_id', '=', workspaceId)
    .where((eb) => eb.or([
      sql<boolean>`to_tsvector('simple', s.text) @@ ${tsquery}`,
      ...long.map((word) => sql<boolean>`s.text ilike ${likePattern(word)}`),
    ]))
    .orderBy('score', 'desc').limit(limit).execute()
  return rows.map((row) => ({ ...row, score: Number(row.score) }))
}
