// The realtime contract (DESIGN §5). Every event is appended to the `conversation_events` log with
// a per-conversation `seq` inside the transaction that caused it, then published on the bus (after
// commit). Sockets replay from the log (`afterSeq`) and then go live with no gap and no duplicate.
import type { Kysely, Transaction } from 'kysely'
import type { Tables } from '../db/tables.ts'

export type Executor = Kysely<Tables> | Transaction<Tables>

/** Which channel an event belongs to: `work` events also reach `?channel=work` sockets. */
export type EventChannel = 'session' | 'work'

export type RealtimeEvent = {
  /** envelope sent to clients: {type, seq, at, data} */
  type: string
  seq: number
  at: string
  data: unknown
  conversationId: string
  channel: EventChannel
}

export type EventLog = {
  /**
   * Appends an event to the conversation's log inside `executor` (pass the caller's transaction
   * so the event commits or rolls back with the change it describes) and schedules its publication.
   * Event types starting with `workobject.`, `workset.`, `refinement.`, `action.` or `execution.` go on the `work` channel.
   */
  append(executor: Executor, conversationId: string, type: string, data: unknown): Promise<RealtimeEvent>
  /** Appends `events` in order, in `executor` (one statement on PostgreSQL): as many `append`s, in fewer round trips. */
  appendMany(executor: Executor, conversationId: string, events: { type: string; data: unknown }[]): Promise<RealtimeEvent[]>
  /** Events with seq > afterSeq, oldest first. */
  readAfter(conversationId: string, afterSeq: number, limit?: number): Promise<RealtimeEvent[]>
}
