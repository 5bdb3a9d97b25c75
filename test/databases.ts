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
