// Group commit of appends made outside a transaction (presence): per conversation, one batch is
// written at a time; appends that arrive meanwhile wait and are written together next, in arrival
// order. A batch fails or succeeds as a whole (its statement is one transaction).
import { nowIso } from '../ids.ts'
import type { EventChannel, RealtimeEvent } from './types.ts'

export type PendingEvent = { type: string; channel: EventChannel; data: unknown; json: string; at: string }
type Waiting = PendingEvent & { resolve(event: RealtimeEvent): void; reject(error: unknown): void }

/** Most events written by one statement. */
const MAX_BATCH = 500

export function createAppendBatcher(write: (conversationId: string, events: PendingEvent[]) => Promise<number[]>) {
  const queues = new Map<string, Waiting[]>()

  const drain = async (conversationId: string, queue: Waiting[]) => {
    while (queue.length > 0) {
      const batch = queue.splice(0, MAX_BATCH)
      try {
        const seqs = await write(conversationId, batch)
        batch.forEach((event, index) => event.resolve({
          type: event.type, seq: seqs[index]!, at: event.at, data: event.data, conversationId, channel: event.channel,
        }))
      } catch (error) {
        for (const event of batch) event.reject(error)
      }
    }
    queues.delete(conversationId)
  }

  return {
    append(conversationId: string, type: string, data: unknown, channel: EventChannel): Promise<RealtimeEvent> {
      const json = JSON.stringify(data)
      return new Promise<RealtimeEvent>((resolve, reject) => {
        const waiting: Waiting = { type, channel, data, json, at: nowIso(), resolve, reject }
        const queue = queues.get(conversationId)
        if (queue) return void queue.push(waiting)
        const fresh = [waiting]
        queues.set(conversationId, fresh)
        void drain(conversationId, fresh)
      })
    },
  }
}
