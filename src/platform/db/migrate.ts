// One ordered list of portable migrations. better-auth's own migrator creates or updates its
// auth_* tables first (it diffs the live schema, so repeating it is harmless); ours follow.
import { sql } from 'kysely'
import { Migrator, type Migration } from 'kysely/migration'
import type { Database, DialectName } from './index.ts'
import { foundation } from './migrations/0001_foundation.ts'
import { workspace } from './migrations/0002_workspace.ts'
import { capture } from './migrations/0003_capture.ts'
import { realtime } from './migrations/0004_realtime.ts'
import { transcripts } from './migrations/0005_transcripts.ts'
import { transcription } from './migrations/0006_transcription.ts'
import { search } from './migrations/0007_search.ts'
import { work } from './migrations/0008_work.ts'
import { shares } from './migrations/0009_shares.ts'
import { extraction } from './migrations/0010_extraction.ts'
import { followups } from './migrations/0011_followups.ts'
import { searchKeys } from './migrations/0012_search_keys.ts'
import { billing } from './migrations/0015_billing.ts'
import { runner } from './migrations/0018_runner.ts'
import { memory } from './migrations/0017_memory.ts'
import { integrations } from './migrations/0014_integrations.ts'
import { voice } from './migrations/0016_voice.ts'
import { workExternalRefs } from './migrations/0020_work_external_refs.ts'

const migrations: Record<string, (dialect: DialectName) => Migration> = {
  '0001_foundation': foundation,
  '0002_workspace': workspace,
  '0003_capture': capture,
  '0004_realtime': realtime,
  '0005_transcripts': transcripts,
  '0006_transcription': transcription,
  '0007_search': search,
  '0008_work': work,
  '0009_shares': shares,
  '0010_extraction': extraction,
  '0011_followups': followups,
  '0012_search_keys': searchKeys,
  '0015_billing': billing,
  '0018_runner': runner,
  '0017_memory': memory,
  '0014_integrations': integrations,
  '0016_voice': voice,
  '0020_work_external_refs': workExternalRefs,
}

const CATALOG_RACES = new Set(['3F000', '42P01', '42703'])

export async function migrateToLatest(database: Database, migrateAuthTables: () => Promise<void>) {
  // Both migrators introspect every schema; PostgreSQL fails that query when another schema is
  // dropped (3F000) or has a table or column dropped or renamed (42P01, 42703) meanwhile: parallel
  // tests, schema-per-tenant neighbours. Migrating again is safe (each migration is transactional).
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await migrateOnce(database, migrateAuthTables)
    } catch (error) {
      if (!CATALOG_RACES.has(String((error as { code?: string }).code)) || attempt === 3) throw error
    }
  }
}

async function migrateOnce(database: Database, migrateAuthTables: () => Promise<void>) {
  await migrateAuthTables()
  const migrator = new Migrator({
    db: database.db,
    // Kysely finds its bookkeeping tables in any schema unless told which one is ours; a
    // kysely_migration table of another schema (another app, a parallel test) would be taken for ours.
    migrationTableSchema: await ownSchema(database),
    // Migrations are numbered by the work that introduced them and touch separate tables; one
    // numbered below an applied one (parallel branches merged) still runs.
    allowUnorderedMigrations: true,
    provider: {
      async getMigrations() {
        return Object.fromEntries(Object.entries(migrations).map(([name, make]) => [name, make(database.dialect)]))
      },
    },
  })
  const { error, results } = await migrator.migrateToLatest()
  if (error) throw error
  return (results ?? []).filter((result) => result.status === 'Success').map((result) => result.migrationName)
}

async function ownSchema(database: Database): Promise<string | undefined> {
  if (database.dialect !== 'postgres') return undefined
  if (database.schema) return database.schema
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(database.db)
  return rows[0]?.schema
}
