// Short-lived caches of what access decides (the actor of a cookie) and of answers derived from the
// same rows (the current account): each entry lives ACTOR_CACHE_TTL_MS at most, and every cache is
// emptied at once when this process commits a change to sessions, accounts, workspaces or
// memberships (the guard calls forgetAll before the changing request's answer leaves). A read that
// started before such a change does not store what it read. docs/decisions.md has the bounds.

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

type Entry<V> = { value: V; expiresAt: number }

/**
 * Entries in a Map in the order they were stored, each with its deadline (Date.now, like the
 * session's expiresAt): a hit is one Map lookup and one clock read. When full, the oldest entry
 * goes first; with a 1 s lifetime that is as good as least recently used.
 */
class ExpiringMap<V> {
  #entries = new Map<string, Entry<V>>()

  get(key: string): V | undefined {
    const entry = this.#entries.get(key)
    if (entry === undefined) return undefined
    if (entry.expiresAt > Date.now()) return entry.value
    this.#entries.delete(key)
    return undefined
  }

  set(key: string, value: V) {
    this.#entries.delete(key)
    if (this.#entries.size >= CACHE_SIZE) this.#entries.delete(this.#entries.keys().next().value!)
    this.#entries.set(key, { value, expiresAt: Date.now() + ACTOR_CACHE_TTL_MS })
  }

  delete(key: string) {
    this.#entries.delete(key)
  }

  clear() {
    this.#entries.clear()
  }
}

export function createAccessCaches(): AccessCaches {
  const caches: ExpiringMap<object>[] = []
  // Bumped by forgetAll: a lookup that started before a change must not cache what it read.
  let generation = 0
  return {
    create<V extends object>(): AccessCache<V> {
      const cache = new ExpiringMap<V>()
      caches.push(cache as ExpiringMap<object>)
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
