import { expect, it } from 'vitest'
import type { Kysely } from 'kysely'
import { eachDatabase } from '../../../test/harness.ts'
import { prepared } from './prepared.ts'
import type { Tables } from './tables.ts'

eachDatabase('prepared queries', (h) => {
  const workspacesNamed = prepared((db: Kysely<Tables>, name: string, creator: string) =>
    db.selectFrom('workspaces').select(['id', 'name']).where('name', '=', name)
      .where('created_by', '=', creator).where('id', '!=', 'constant-never-an-id').orderBy('id'))

  it('binds each call\'s values into the SQL compiled once, keeping constants', async () => {
    const now = new Date().toISOString()
    const rows = ['a', 'b', 'a'].map((name, index) => ({ id: `wsp_prepared_${index}`, name, created_by: 'acc_x', created_at: now, updated_at: now }))
    await h.database.db.insertInto('workspaces').values(rows).execute()
    expect((await workspacesNamed(h.database.db, 'a', 'acc_x')).map((row) => row.id)).toEqual(['wsp_prepared_0', 'wsp_prepared_2'])
    expect((await workspacesNamed(h.database.db, 'b', 'acc_x')).map((row) => row.id)).toEqual(['wsp_prepared_1'])
    expect(await workspacesNamed(h.database.db, 'a', 'acc_other')).toEqual([])
    const inTransaction = await h.database.db.transaction().execute((trx) => workspacesNamed(trx, 'b', 'acc_x'))
    expect(inTransaction).toHaveLength(1)
  })
})
