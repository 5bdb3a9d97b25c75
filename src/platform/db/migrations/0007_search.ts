// Session search over transcripts (DESIGN §8 answers build on it). SQLite: an FTS5 index with the
// trigram tokenizer (substring matches for any script, Chinese included) kept in step with
// transcript_segments by triggers, whoever writes the rows. PostgreSQL: a full-text index
// ('simple' configuration: no stemming, any language) and a pg_trgm index for substring matches.
import { sql, type Kysely } from 'kysely'
import type { DialectName } from '../index.ts'

export function search(dialect: DialectName) {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.createIndex('transcript_segments_workspace').on('transcript_segments').columns(['workspace_id', 'session_id']).execute()
      if (dialect === 'sqlite') {
        await sql`create virtual table transcript_fts using fts5(text, content='transcript_segments', content_rowid='rowid', tokenize='trigram')`.execute(db)
        await sql`create trigger transcript_fts_insert after insert on transcript_segments begin
          insert into transcript_fts(rowid, text) values (new.rowid, new.text); end`.execute(db)
        await sql`create trigger transcript_fts_delete after delete on transcript_segments begin
          insert into transcript_fts(transcript_fts, rowid, text) values ('delete', old.rowid, old.text); end`.execute(db)
        await sql`create trigger transcript_fts_update after update of text on transcript_segments begin
          insert into transcript_fts(transcript_fts, rowid, text) values ('delete', old.rowid, old.text);
          insert into transcript_fts(rowid, text) values (new.rowid, new.text); end`.execute(db)
        return
      }
      await sql`create index transcript_segments_fts on transcript_segments using gin (to_tsvector('simple', text))`.execute(db)
      // pg_trgm may already be installed (in any schema) or be refused to a non-superuser: the
      // trigram index is then left out and substring search scans the workspace's segments.
      await sql`savepoint pg_trgm_setup`.execute(db)
      try {
        await sql`create extension if not exists pg_trgm`.execute(db)
        const { rows } = await sql<{ schema: string }>`select extnamespace::regnamespace::text as schema from pg_extension where extname = 'pg_trgm'`.execute(db)
        const schema = rows[0]!.schema
        await sql`create index transcript_segments_trgm on transcript_segments using gin (text ${sql.raw(`${quoteIdent(schema)}.gin_trgm_ops`)})`.execute(db)
        await sql`release savepoint pg_trgm_setup`.execute(db)
      } catch {
        await sql`rollback to savepoint pg_trgm_setup`.execute(db)
      }
    },
  }
}

const quoteIdent = (name: string) => (/^[a-z_][a-z0-9_]*$/.test(name) ? name : `"${name.replaceAll('"', '""')}"`)
