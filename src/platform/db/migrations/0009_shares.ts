// Share links: a session readable (or commentable) by anyone holding the link's token. The token
// itself is not stored: it is an HMAC of the share id (recomputed to answer GET …/share), and the
// table keeps its SHA-256 for the lookup.
import { sql, type Kysely } from 'kysely'

export function shares() {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.createTable('session_shares')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('session_id', 'text', (c) => c.notNull().references('capture_sessions.id').onDelete('cascade'))
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('permission', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('revoked_at', 'text')
        .addColumn('created_by', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute()
      // One live link per session, also when two first GETs race to create it.
      await sql`create unique index session_shares_live on session_shares (session_id) where revoked_at is null`.execute(db)
    },
  }
}
