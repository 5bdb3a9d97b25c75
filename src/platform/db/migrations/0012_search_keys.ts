// SQLite's search index keyed by a stable integer: FTS5 addresses documents by rowid, and the
// implicit rowid of transcript_segments (a text primary key) is one a VACUUM may renumber, which
// would point the index at the wrong segments. transcript_fts_keys gives each segment an INTEGER
// PRIMARY KEY (which VACUUM keeps); the index reads its text through a view on that key.
// PostgreSQL indexes the segment rows themselves and has nothing to change.
import { sql, type Kysely } from 'kysely'
import type { DialectName } from '../index.ts'

export function searchKeys(dialect: DialectName) {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect !== 'sqlite') return
      for (const name of ['transcript_fts_insert', 'transcript_fts_delete', 'transcript_fts_update']) await sql`drop trigger if exists ${sql.raw(name)}`.execute(db)
      await sql`drop table if exists transcript_fts`.execute(db)
      await sql`create table transcript_fts_keys (key integer primary key, segment_id text not null unique)`.execute(db)
      await sql`insert into transcript_fts_keys (segment_id) select id from transcript_segments order by rowid`.execute(db)
      await sql`create view transcript_fts_source as
        select k.key as key, s.text as text from transcript_fts_keys k join transcript_segments s on s.id = k.segment_id`.execute(db)
      await sql`create virtual table transcript_fts using fts5(text, content='transcript_fts_source', content_rowid='key', tokenize='trigram')`.execute(db)
      await sql`insert into transcript_fts(transcript_fts) values ('rebuild')`.execute(db)
      await sql`create trigger transcript_fts_insert after insert on transcript_segments begin
        insert into transcript_fts_keys (segment_id) values (new.id);
        insert into transcript_fts(rowid, text) values (last_insert_rowid(), new.text); end`.execute(db)
      await sql`create trigger transcript_fts_delete after delete on transcript_segments begin
        insert into transcript_fts(transcript_fts, rowid, text) values ('delete', (select key from transcript_fts_keys where segment_id = old.id), old.text);
        delete from transcript_fts_keys where segment_id = old.id; end`.execute(db)
      await sql`create trigger transcript_fts_update after update of text on transcript_segments begin
        insert into transcript_fts(transcript_fts, rowid, text) values ('delete', (select key from transcript_fts_keys where segment_id = old.id), old.text);
        insert into transcript_fts(rowid, text) values ((select key from transcript_fts_keys where segment_id = new.id), new.text); end`.execute(db)
    },
  }
}
