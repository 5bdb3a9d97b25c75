// Opens the database named by the config: node:sqlite (embedded) or PostgreSQL (cluster).
// Everything that differs between the two lives here and in dialect.ts.
import { mkdirSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import path from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { Kysely, PostgresDialect, sql } from 'kysely'
import pg from 'pg'
import type { DatabaseTarget } from '../../config.ts'
import { createReadPool, type ReadPool } from './read-pool.ts'
import { NodeSqliteDialect } from './sqlite-dialect.ts'
import type { Tables } from './tables.ts'

export type Db = Kysely<Tables>
export type DialectName = 'sqlite' | 'postgres'

export type Database = {
  db: Db
  dialect: DialectName
  /** where better-auth should look for its tables; set for PostgreSQL test schemas */
  schema: string | undefined
  /** PostgreSQL connection string, for connections outside the pool (LISTEN) */
  url: string | undefined
  /** SQLite file: read-only connections on worker threads for heavy reads (search) */
  readPool?: ReadPool
  close(): Promise<void>
}

/** Read-only SQLite connections on worker threads (the main thread keeps the one that writes). */
const READ_WORKERS = Math.max(2, Math.min(4, availableParallelism() - 1))

// int8 (COUNT(*), bigint columns) as a JS number: our counts never pass 2^53.
pg.types.setTypeParser(20, (value) => Number.parseInt(value, 10))

export function openDatabase(target: DatabaseTarget & { schema?: string }): Database {
  if (target.kind === 'sqlite') return openSqlite(target.path)
  return openPostgres(target.url, target.schema)
}

function openSqlite(file: string): Database {
  if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true })
  const database = new DatabaseSync(file)
  database.exec('PRAGMA journal_mode = WAL; PRAGMA busy_timeout = 5000; PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL')
  const db = new Kysely<Tables>({ dialect: new NodeSqliteDialect(database) })
  // Started on first use: most processes (CLI commands, most tests) never search.
  let readPool: ReadPool | undefined
  return {
    db,
    dialect: 'sqlite',
    schema: undefined,
    url: undefined,
    get readPool() {
      if (file === ':memory:') return undefined
      readPool ??= createReadPool(file, READ_WORKERS)
      return readPool
    },
    async close() {
      await readPool?.close()
      await db.destroy()
      if (database.isOpen) database.close()
    },
  }
}

function openPostgres(url: string, schema: string | undefined): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    connectionTimeoutMillis: 5000,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  })
  // A dropped connection must not crash the process; the next query reconnects.
  pool.on('error', () => {})
  const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) })
  return { db, dialect: 'postgres', schema, url, close: () => db.destroy() }
}

/** `SELECT 1` with a deadline: the health check must answer even when the database hangs. */
export async function pingDatabase(db: Db, timeoutMs = 2000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined
  const deadline = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs)
  })
  try {
    return await Promise.race([sql`select 1`.execute(db).then(() => true), deadline])
  } catch {
    return false
  } finally {
    clearTimeout(timer)
  }
}
