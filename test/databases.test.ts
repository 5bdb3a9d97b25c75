import { expect, it } from 'vitest'
import pg from 'pg'
import { postgresUrl } from './databases.ts'
import { createHarness } from './harness.ts'

// Test schemas share one database: dropping one must not reach into another (pg_trgm, which lives
// once per database, is kept in `public` rather than in whichever test schema migrated first).
it.skipIf(!postgresUrl)('drops a test schema without touching another test schema\'s trigram index', async () => {
  const first = await createHarness('postgres')
  const second = await createHarness('postgres')
  const client = new pg.Client({ connectionString: postgresUrl })
  await client.connect()
  try {
    await first.close()
    const schema = second.database.schema!
    const { rows } = await client.query(`select indexname from pg_indexes where schemaname = $1 and indexname = 'transcript_segments_trgm'`, [schema])
    expect(rows).toHaveLength(1)
    const { rows: extension } = await client.query(`select extnamespace::regnamespace::text as schema from pg_extension where extname = 'pg_trgm'`)
    expect(extension[0]?.schema).toBe('public')
  } finally {
    await client.end()
    await second.close()
  }
}, 120_000)
