import { sql, type Transaction } from 'kysely'
import { expect, it } from 'vitest'
import { eachDatabase } from '../../../test/harness.ts'
import type { Tables } from './tables.ts'
import { afterBodies, createSharedTransactions } from './shared-transaction.ts'

eachDatabase('shared transactions', (h) => {
  it('runs bodies of a key that arrive meanwhile together: sorted, a failing one alone, the deferred part once, answers after commit', async () => {
    const database = h.database
    await sql`create table shared_probe (id text primary key)`.execute(database.db)
    const shared = createSharedTransactions(database)
    type Item = { trx: Transaction<Tables>; name: string }
    const deferredCalls: string[][] = []
    const recordAll = async (items: Item[]) => {
      deferredCalls.push(items.map((item) => item.name))
      await sql`insert into shared_probe (id) values (${`deferred:${items.map((item) => item.name).join(',')}`})`.execute(items[0]!.trx)
    }
    let open = () => {}
    const gate = new Promise<void>((resolve) => { open = resolve })
    const committed = new Set<string>()
    const body = (name: string, options: { wait?: boolean; fail?: boolean } = {}) => async (trx: Transaction<Tables>) => {
      await sql`insert into shared_probe (id) values (${name})`.execute(trx)
      await afterBodies(trx, recordAll, { trx, name })
      if (options.wait) await gate
      if (options.fail) throw new Error(`${name} refused`)
      const txid = database.dialect === 'postgres' ? (await sql<{ id: string }>`select txid_current()::text as id`.execute(trx)).rows[0]!.id : 'one'
      return { name, txid }
    }
    const run = (name: string, options?: { wait?: boolean; fail?: boolean }) => shared.run('key', name, body(name, options)).then((value) => {
      committed.add(name)
      return value
    })
    // Three batches of one run at once (each alone, held open); what arrives meanwhile waits.
    const blockers = ['x', 'y', 'z'].map((name) => run(name, { wait: true }))
    // Settled as they end (a rejection waits for no one); their order is the order they were sent.
    const later = Promise.allSettled([run('d'), run('c', { fail: true }), run('a'), run('e'), run('b')])
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(committed.size).toBe(0)
    open()
    await Promise.all(blockers)
    const results = await later
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled', 'fulfilled'])
    expect((results[1] as PromiseRejectedResult).reason).toMatchObject({ message: 'c refused' })
    const rows = await sql<{ id: string }>`select id from shared_probe order by id`.execute(database.db)
    expect(rows.rows.map((row) => row.id)).toEqual(['a', 'b', 'd', 'deferred:a,b,d,e', 'deferred:x', 'deferred:y', 'deferred:z', 'e', 'x', 'y', 'z'])
    // The batch's deferred part ran once, with its bodies' items in their order, the failed one's dropped.
    // (The blockers' own parts ran alone; which of them ran before the batch depends on the pool.)
    expect(deferredCalls.toSorted()).toEqual([['a', 'b', 'd', 'e'], ['x'], ['y'], ['z']])
    const txids = (results.filter((result) => result.status === 'fulfilled') as PromiseFulfilledResult<{ txid: string }>[]).map((result) => result.value.txid)
    expect(new Set(txids).size).toBe(1)
    await sql`drop table shared_probe`.execute(database.db)
  })

  it('runs a body that lost a deadlock again alone: the caller gets its answer, not 40P01 (PostgreSQL; SQLite has one writer)', async () => {
    const database = h.database
    if (database.dialect !== 'postgres') return
    await sql`create table deadlock_probe (id text primary key)`.execute(database.db)
    await sql`insert into deadlock_probe (id) values ('x'), ('y')`.execute(database.db)
    const shared = createSharedTransactions(database)
    const lock = (trx: Transaction<Tables>, id: string) => sql`select id from deadlock_probe where id = ${id} for update`.execute(trx)
    const signal = () => {
      let resolve = () => {}
      const promise = new Promise<void>((done) => { resolve = done })
      return { promise, resolve }
    }
    const gate = signal()
    const victimHasX = signal()
    const otherHasY = signal()
    let attempts = 0
    // Three lone bodies hold the key's batches open, so the next two go together in one batch.
    const blockers = ['a', 'b', 'c'].map((name) => shared.run('key', name, async () => { await gate.promise; return name }))
    const plain = shared.run('key', 'p', async () => 'plain')
    const victim = shared.run('key', 'v', async (trx) => {
      attempts += 1
      await lock(trx, 'x')
      victimHasX.resolve()
      await otherHasY.promise
      await lock(trx, 'y') // waits first, so its deadlock check finds the cycle: this body loses
      return 'victim'
    })
    const other = database.db.transaction().execute(async (trx) => {
      await victimHasX.promise
      await lock(trx, 'y')
      otherHasY.resolve()
      await new Promise((resolve) => setTimeout(resolve, 200))
      await lock(trx, 'x')
    })
    gate.resolve()
    await Promise.all(blockers)
    expect(await Promise.all([plain, victim, other])).toEqual(['plain', 'victim', undefined])
    expect(attempts).toBe(2)
    await sql`drop table deadlock_probe`.execute(database.db)
  })
})
