// Short-lived caches of what access decides (the actor of a cookie) and of answers derived from the
// same rows (the current account): each entry lives ACTOR_CACHE_TTL_MS at most, and every cache is
// emptied at once when this process commits a change to sessions, accounts, workspaces or
// memberships (the guard calls forgetAll before the changing request's answer leaves). A read that
// started before such a change does not store what it read. docs/decisions.md has the bounds.
import { LRUCache } from 'lru-cache'

/** The longest another process keeps a revoked session, a removed member or a changed permission working. */
export const ACTOR_CACHE_TTL_MS = 1000
const CACHE_SIZE = 10_000

export type AccessCache<V extends object> = {
  get(key: string): V | undefined
  /** The cached value, else `read()`'s, cached unless access changed while reading. */
  remember(key: string, read: () => Promise<V | undefined>): Promise<V | undefined>
  delete(key: string): void
}

export type AccessCaches = {
  create<V extends object>(): AccessCache<V>
  forgetAll(): void
}

export function createAccessCaches(): AccessCaches {
  const caches: LRUCache<string, object>[] = []
  // Bumped by forgetAll: a lookup that started before a change must not cache what it read.
  let generation = 0
  return {
    create<V extends object>(): AccessCache<V> {
      // Date.now as the clock, like the session's expiresAt.
      const cache = new LRUCache<string, V>({ max: CACHE_SIZE, ttl: ACTOR_CACHE_TTL_MS, perf: { now: () => Date.now() } })
      caches.push(cache as unknown as LRUCache<string, object>)
      return {
        get: (key) => cache.get(key),
        async remember(key, read) {
          const cached = cache.get(key)
          if (cached) return cached
          const startedIn = generation
          const value = await read()
          if (value !== undefined && startedIn === generation) cache.set(key, value)
          return value
        },
        delete: (key) => {
          cache.delete(key)
        },
      }
    },
    forgetAll() {
      generation += 1
      for (const cache of caches) cache.clear()
    },
  }
}
