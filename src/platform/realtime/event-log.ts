// The append-only log of conversation events. Appends take the next per-conversation seq from a
// counter row (locked until the caller's transaction ends) and wake the bus; readers page by seq.
// On PostgreSQL the counter, the event row and the wake-up are one statement: an append outside a
// transaction holds the counter row only while the server runs it, not across round trips.
// Appends outside a transaction (presence) are group-committed per conversation: while one batch
// commits, the next ones queue and then commit together (one counter update, one commit).
import { sql } from 'kysely'
import type { Database } from '../db/index.ts'
import { nowIso } from '../ids.ts'
import type { Bus } from './bus.ts'
import type { EventChannel, EventLog, Executor, RealtimeEvent } from './types.ts'
import { createAppendBatcher, type PendingEvent } from './append-batch.ts'

const WORK_PREFIXES = ['workobject.', 'workset.', 'refinement.', 'action.', 'execution.']
const DEFAULT_READ_LIMIT = 500

export const channelOf = (type: string): EventChannel =>
  WORK_PREFIXES.some((prefix) => type.startsWith(prefix)) ? 'work' : 'session'

export function createEventLog(database: Database, bus: Bus): EventLog {
  const appendOnce = async (executor: Executor, conversationId: string, type: string, data: unknown, notify: NonNullable<Bus['notifyExpression']>): Promise<RealtimeEvent> => {
    const at = nowIso()
    const channel = channelOf(type)
    const { rows } = await sql<{ seq: number }>`
      with counter as (
        insert into conversation_event_counters (conversation_id, last_seq) values (${conversationId}, 1)
        on conflict (conversation_id) do update set last_seq = conversation_event_counters.last_seq + 1
        returning last_seq
      ), event as (
        insert into conversation_events (conversation_id, seq, type, channel, data, at)
        select ${conversationId}, last_seq, ${type}, ${channel}, ${JSON.stringify(data ?? null)}, ${at} from counter
        returning seq
      )
      select seq, ${notify(conversationId)} as woken from event`.execute(executor)
    return { type, seq: Number(rows[0]!.seq), at, data: data ?? null, conversationId, channel }
  }

  const appendIn = async (trx: Executor, conversationId: string, type: string, data: unknown, at = nowIso()): Promise<RealtimeEvent> => {
    const { last_seq: seq } = await trx.insertInto('conversation_event_counters')
      .values({ conversation_id: conversationId, last_seq: 1 })
      .onConflict((oc) => oc.column('conversation_id').doUpdateSet({ last_seq: sql`conversation_event_counters.last_seq + 1` }))
      .returning('last_seq')
      .executeTakeFirstOrThrow()
    const event: RealtimeEvent = { type, seq: Number(seq), at, data: data ?? null, conversationId, channel: channelOf(type) }
    await trx.insertInto('conversation_events').values({
      conversation_id: conversationId, seq: event.seq, type, channel: event.channel, data: JSON.stringify(event.data), at: event.at,
    }).execute()
    await bus.notify(trx, conversationId)
    return event
  }

  /** PostgreSQL: appends `events` in order in one statement (its own transaction when `executor` is the database); answers their seqs. */
  const appendStatement = async (executor: Executor, conversationId: string, events: PendingEvent[], notify: NonNullable<Bus['notifyExpression']>): Promise<number[]> => {
    const count = events.length
    const { rows } = await sql<{ first: number }>`
      with counter as (
        insert into conversation_event_counters (conversation_id, last_seq) values (${conversationId}, ${count})
        on conflict (conversation_id) do update set last_seq = conversation_event_counters.last_seq + ${count}
        returning last_seq
      ), event as (
        insert into conversation_events (conversation_id, seq, type, channel, data, at)
        select ${conversationId}, counter.last_seq - ${count} + item.ord, item.type, item.channel, item.data, item.at
        from counter, unnest(${events.map((event) => event.type)}::text[], ${events.map((event) => event.channel)}::text[],
          ${events.map((event) => event.json)}::text[], ${events.map((event) => event.at)}::text[]) with ordinality as item(type, channel, data, at, ord)
        returning seq
      )
      select (select min(seq) from event) as first, ${notify(conversationId)} as woken`.execute(executor)
    const first = Number(rows[0]!.first)
    return events.map((_, index) => first + index)
  }

  /** Appends `events` in order in one statement (PostgreSQL) or one transaction (SQLite); answers their seqs. */
  const appendBatch = async (conversationId: string, events: PendingEvent[]): Promise<number[]> => {
    if (database.dialect === 'postgres' && bus.notifyExpression) return appendStatement(database.db, conversationId, events, bus.notifyExpression)
    return database.db.transaction().execute(async (trx) => {
      const seqs: number[] = []
      for (const event of events) seqs.push((await appendIn(trx, conversationId, event.type, event.data, event.at)).seq)
      return seqs
    })
  }
  const batcher = createAppendBatcher(appendBatch)

  return {
    append(executor, conversationId, type, data) {
      if (executor === database.db) return batcher.append(conversationId, type, data ?? null, channelOf(type))
      if (database.dialect === 'postgres' && bus.notifyExpression) return appendOnce(executor, conversationId, type, data, bus.notifyExpression)
      if (executor.isTransaction) return appendIn(executor, conversationId, type, data)
      return database.db.transaction().execute((trx) => appendIn(trx, conversationId, type, data))
    },
    async appendMany(executor, conversationId, events) {
      if (events.length === 0) return []
      const at = nowIso()
      const pending = events.map((event): PendingEvent => ({ type: event.type, channel: channelOf(event.type), data: event.data ?? null, json: JSON.stringify(event.data ?? null), at }))
      const toEvents = (seqs: number[]) => pending.map((event, index): RealtimeEvent => ({
        type: event.type, seq: seqs[index]!, at, data: event.data, conversationId, channel: event.channel,
      }))
      if (database.dialect === 'postgres' && bus.notifyExpression) return toEvents(await appendStatement(executor, conversationId, pending, bus.notifyExpression))
      const inTransaction = async (trx: Executor) => {
        const seqs: number[] = []
        for (const event of pending) seqs.push((await appendIn(trx, conversationId, event.type, event.data, at)).seq)
        return toEvents(seqs)
      }
      return executor.isTransaction ? inTransaction(executor) : database.db.transaction().execute(inTransaction)
    },
    async readAfter(conversationId, afterSeq, limit = DEFAULT_READ_LIMIT) {
      const rows = await database.db.selectFrom('conversation_events').selectAll()
        .where('conversation_id', '=', conversationId).where('seq', '>', afterSeq)
        .orderBy('seq', 'asc').limit(limit).execute()
      return rows.map((row) => ({
        type: row.type, seq: Number(row.seq), at: row.at, data: JSON.parse(row.data) as unknown,
        conversationId: row.conversation_id, channel: row.channel,
      }))
    },
  }
}

export async function lastSeq(database: Database, conversationId: string): Promise<number> {
  const row = await database.db.selectFrom('conversation_event_counters').select('last_seq')
    .where('conversation_id', '=', conversationId).executeTakeFirst()
  return Number(row?.last_seq ?? 0)
}
