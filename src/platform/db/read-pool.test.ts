import path from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { afterAll, describe, expect, it } from 'vitest'
import { tempDir } from '../../../test/databases.ts'
import { createReadPool } from './read-pool.ts'

describe('SQLite read pool', () => {
  const file = path.join(tempDir(), 'pool.db')
  const writer = new DatabaseSync(file)
  writer.exec("PRAGMA journal_mode = WAL; create table notes (id integer primary key, body text); insert into notes (body) values ('one'), ('two')")
  const pool = createReadPool(file, 2)
  afterAll(async () => {
    await pool.close()
    writer.close()
  })

  it('reads on worker threads, in parallel, and sees what the main connection committed', async () => {
    const results = await Promise.all([1, 2, 3, 4].map(() => pool.all<{ body: string }>({ sql: 'select body from notes where id >= ? order by id', parameters: [1] })))
    for (const rows of results) expect(rows.map((row) => row.body)).toEqual(['one', 'two'])
    writer.exec("insert into notes (body) values ('three')")
    expect((await pool.all<{ n: number }>({ sql: 'select count(*) as n from notes', parameters: [] }))[0]!.n).toBe(3)
  })

  it('fails a bad statement without taking the worker down, and refuses writes', async () => {
    await expect(pool.all({ sql: 'select nope from notes', parameters: [] })).rejects.toThrow(/no such column/)
    await expect(pool.all({ sql: "insert into notes (body) values ('x')", parameters: [] })).rejects.toThrow(/readonly|read-only/i)
    expect(await pool.all({ sql: 'select 1 as ok', parameters: [] })).toEqual([{ ok: 1 }])
  })
})
