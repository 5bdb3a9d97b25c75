import { randomUUID } from 'node:crypto'
import { expect, it } from 'vitest'
import { eachDatabase } from '../../../test/harness.ts'

eachDatabase('event log: appends outside a transaction', (h) => {
  it('many at once on one conversation get consecutive seqs in call order, all readable, none twice', async () => {
    const events = h.app.deps.events
    const conversationId = `cnv_${randomUUID()}`
    const first = await events.append(h.database.db, conversationId, 'presence', { index: -1 })
    const appended = await Promise.all(Array.from({ length: 300 }, (_, index) => events.append(h.database.db, conversationId, index % 2 ? 'presence' : 'workset.updated', { index })))
    expect(appended.map((event) => event.seq)).toEqual(appended.map((_, index) => first.seq + 1 + index))
    expect(appended[0]!.channel).toBe('work')
    const read = await events.readAfter(conversationId, first.seq, 1000)
    expect(read.map((event) => [event.seq, event.type, event.data, event.at])).toEqual(appended.map((event) => [event.seq, event.type, event.data, event.at]))
    // A transaction's append after the batches continues the same counter.
    const after = await h.database.db.transaction().execute((trx) => events.append(trx, conversationId, 'presence', { index: 300 }))
    expect(after.seq).toBe(first.seq + 301)
  })

  it('appends on different conversations do not share seqs', async () => {
    const events = h.app.deps.events
    const [a, b] = [`cnv_${randomUUID()}`, `cnv_${randomUUID()}`]
    const appended = await Promise.all([a, b, a, b].map((id) => events.append(h.database.db, id, 'presence', {})))
    expect(appended.map((event) => event.seq)).toEqual([1, 1, 2, 2])
  })
})
