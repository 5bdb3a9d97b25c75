// Group commit of appends made outside a transaction (presence): per conversation, one batch is
// written at a time; appends that arrive meanwhile wait and are written together next, in arrival
// order. A batch fails or succeeds as a whole (its statement is one transaction).
import { createKeyedGroupCommitter, type Outcome } from '../group-commit.ts'
import { nowIso } from '../ids.ts'
import type { EventChannel, RealtimeEvent } from './types.ts'

export type PendingEvent = { type: string; channel: EventChannel; data: unknown; json: string; at: string }

/** Most events written by one statement. */
const MAX_BATCH = 500

export function createAppendBatcher(write: (conversationId: string, events: PendingEvent[]) => Promise<number[]>) {
  const committer = createKeyedGroupCommitter(async (conversationId, batch: PendingEvent[]): Promise<Outcome<RealtimeEvent>[]> => {
    const seqs = await write(conversationId, batch)
    return batch.map((event, index) => ({
      ok: true, value: { type: event.type, seq: seqs[index]!, at: event.at, data: event.data, conversationId, channel: event.channel },
    }))
  }, { maxBatch: MAX_BATCH })

  return {
    append(conversationId: string, type: string, data: unknown, channel: EventChannel): Promise<RealtimeEvent> {
      return committer.submit(conversationId, { type, channel, data, json: JSON.stringify(data), at: nowIso() })
    },
  }
}
