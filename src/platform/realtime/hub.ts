// One hub per node: the sockets it holds, grouped by conversation. A wake-up makes the hub read
// the conversation's new events once and hand them to each subscriber. A new subscriber first
// replays the log after its `afterSeq`, buffering live events meanwhile, then flushes the buffer:
// each subscriber sends strictly increasing seqs, so the seam has no gap and no duplicate.
import type { FastifyBaseLogger } from 'fastify'
import type { Database } from '../db/index.ts'
import type { Bus } from './bus.ts'
import { lastSeq } from './event-log.ts'
import type { EventChannel, EventLog, RealtimeEvent } from './types.ts'

export type Subscriber = {
  channel: EventChannel | 'all'
  send(event: RealtimeEvent): void
}

type SubscriberState = Subscriber & { lastSent: number; replaying: boolean; buffer: RealtimeEvent[] }

type ConversationFeed = {
  subscribers: Set<SubscriberState>
  lastRead: number
  pulling: Promise<void> | undefined
  pullAgain: boolean
}

export type Hub = {
  /** Replays events after `afterSeq`, then delivers live ones; returns a function that unsubscribes. */
  subscribe(conversationId: string, afterSeq: number, subscriber: Subscriber): Promise<() => void>
  subscriberCount(): number
}

export function createHub(database: Database, events: EventLog, bus: Bus, log: FastifyBaseLogger): Hub {
  const feeds = new Map<string, ConversationFeed>()

  const deliver = (subscriber: SubscriberState, event: RealtimeEvent) => {
    if (event.seq <= subscriber.lastSent) return
    subscriber.lastSent = event.seq
    if (subscriber.channel === 'all' || subscriber.channel === event.channel) subscriber.send(event)
  }

  const pull = (conversationId: string, feed: ConversationFeed): Promise<void> => {
    if (feed.pulling) {
      feed.pullAgain = true
      return feed.pulling
    }
    feed.pulling = (async () => {
      do {
        feed.pullAgain = false
        let batch: RealtimeEvent[]
        do {
          batch = await events.readAfter(conversationId, feed.lastRead)
          for (const event of batch) {
            feed.lastRead = event.seq
            for (const subscriber of feed.subscribers) {
              if (subscriber.replaying) subscriber.buffer.push(event)
              else deliver(subscriber, event)
            }
          }
        } while (batch.length > 0 && feeds.get(conversationId) === feed)
      } while (feed.pullAgain)
    })().catch((error: unknown) => {
      log.error({ err: error, conversationId }, 'realtime: reading new events failed')
    }).finally(() => {
      feed.pulling = undefined
    })
    return feed.pulling
  }

  bus.onWake((conversationId) => {
    if (conversationId === undefined) {
      for (const [id, feed] of feeds) void pull(id, feed)
      return
    }
    const feed = feeds.get(conversationId)
    if (feed) void pull(conversationId, feed)
  })

  return {
    async subscribe(conversationId, afterSeq, subscriber) {
      const state: SubscriberState = { ...subscriber, lastSent: afterSeq, replaying: true, buffer: [] }
      let feed = feeds.get(conversationId)
      if (!feed) {
        feed = { subscribers: new Set(), lastRead: await lastSeq(database, conversationId), pulling: undefined, pullAgain: false }
        const existing = feeds.get(conversationId)
        if (existing) feed = existing
        else feeds.set(conversationId, feed)
      }
      feed.subscribers.add(state)
      try {
        let batch: RealtimeEvent[]
        do {
          batch = await events.readAfter(conversationId, state.lastSent)
          for (const event of batch) deliver(state, event)
        } while (batch.length > 0)
      } finally {
        state.replaying = false
        for (const event of state.buffer) deliver(state, event)
        state.buffer = []
      }
      // Events appended between our last read and the end of replay are caught by this pull.
      void pull(conversationId, feed)
      const joined = feed
      return () => {
        joined.subscribers.delete(state)
        if (joined.subscribers.size === 0 && feeds.get(conversationId) === joined) feeds.delete(conversationId)
      }
    },
    subscriberCount() {
      let count = 0
      for (const feed of feeds.values()) count += feed.subscribers.size
      return count
    },
  }
}
