// Test databases: a fresh SQLite file, or a fresh schema in TEST_DATABASE_URL's PostgreSQL.
import { randomBytes } from 'node:crypto'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import type { DatabaseTarget } from '../src/config.ts'

export type TestDatabaseKind = 'sqlite' | 'postgres'

export const postgresUrl = process.env.TEST_DATABASE_URL?.trim() || undefined

export const databaseKinds: TestDatabaseKind[] = postgresUrl ? ['sqlite', 'postgres'] : ['sqlite']

export type TestDatabase = {
  kind: TestDatabaseKind
  target: DatabaseTarget & { schema?: string }
  /** a DATABASE_URL a separate server process can use to reach the same data */
  url: string
  drop(): Promise<void>
}

export function tempDir(prefix = 'confer-test-'): string {
  return mkdtempSync(path.join(tmpdir(), prefix))
}

export async function createTestDatabase(kind: TestDatabaseKind): Promise<TestDatabase> {
  if (kind === 'sqlite') {
    const file = path.join(tempDir(), 'confer.db')
    return { kind, target: { kind: 'sqlite', path: file }, url: `sqlite:${file}`, drop: async () => {} }
  }
  if (!postgresUrl) throw new Error('TEST_DATABASE_URL is not set')
  const schema = `t_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: postgresUrl })
  await admin.connect()
  await (sharedExtensions ??= installSharedExtensions(admin))
  await admin.query(`CREATE SCHEMA ${schema}`)
  await admin.end()
  const url = new URL(postgresUrl)
  url.searchParams.set('options', `-c search_path=${schema}`)
  return {
    kind,
    target: { kind: 'postgres', url: postgresUrl, schema },
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: postgresUrl })
      await client.connect()
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
      await client.end()
    },
  }
}

let sharedExtensions: Promise<void> | undefined

/**
 * pg_trgm lives once per database, in the schema of whoever created it first. Left to the
 * migrations, that is some test's schema: dropping it (CASCADE) then drops the extension and the
 * trigram index of every other test's schema, taking their locks (deadlocks between test files).
 * Tests keep it in `public`, which no test drops; the migration finds it there by name.
 */
async function installSharedExtensions(admin: pg.Client): Promise<void> {
  try {
    const { rows } = await admin.query<{ schema: string }>(`select extnamespace::regnamespace::text as schema from pg_extension where extname = 'pg_trgm'`)
    if (rows.length === 0) await admin.query('CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public')
    else if (rows[0]!.schema !== 'public') await admin.query('ALTER EXTENSION pg_trgm SET SCHEMA public')
  } catch {
    // Another test process installed it at the same moment, or the role may not: the migration copes.
  }
}
