// Group commit: work items that arrive while `inFlight` flushes are running wait and go together in
// the next one, so a durable step (fsync, transaction commit) is paid once per batch, not per item.
// An idle committer flushes at once: a lone item waits for nothing. More than one flush in flight
// keeps one slow flush (an fsync's tail) from holding up everything behind it. Items of one batch succeed or fail
// one by one: `flush` answers each item with its own result or error.
// `createKeyedGroupCommitter` keeps one such committer per key (a conversation), made on demand and
// dropped once idle: items of one key are batched together, keys never wait for each other.

export type Outcome<R> = { ok: true; value: R } | { ok: false; error: unknown }

export type GroupCommitter<T, R> = { submit(item: T): Promise<R> }

export type GroupOptions = { maxBatch?: number; inFlight?: number }

export function createGroupCommitter<T, R>(flush: (items: T[]) => Promise<Outcome<R>[]>, options: GroupOptions = {}): GroupCommitter<T, R> & { idle(): boolean } {
  type Waiting = { item: T; resolve: (value: R) => void; reject: (error: unknown) => void }
  const maxBatch = options.maxBatch ?? 256
  const inFlight = options.inFlight ?? 1
  let queue: Waiting[] = []
  let running = 0

  const run = async () => {
    running += 1
    while (queue.length > 0) {
      const batch = queue.slice(0, maxBatch)
      queue = queue.slice(batch.length)
      let outcomes: Outcome<R>[]
      try {
        outcomes = await flush(batch.map((waiting) => waiting.item))
      } catch (error) {
        outcomes = batch.map(() => ({ ok: false, error }))
      }
      batch.forEach((waiting, index) => {
        const outcome = outcomes[index] ?? { ok: false, error: new Error('group commit: no outcome for an item') }
        if (outcome.ok) waiting.resolve(outcome.value)
        else waiting.reject(outcome.error)
      })
    }
    running -= 1
  }

  return {
    submit(item) {
      return new Promise<R>((resolve, reject) => {
        queue.push({ item, resolve, reject })
        if (running < inFlight) void run()
      })
    },
    idle: () => running === 0 && queue.length === 0,
  }
}

export function createKeyedGroupCommitter<T, R>(flush: (key: string, items: T[]) => Promise<Outcome<R>[]>, options: GroupOptions = {}) {
  const committers = new Map<string, GroupCommitter<T, R> & { idle(): boolean }>()
  return {
    async submit(key: string, item: T): Promise<R> {
      let committer = committers.get(key)
      if (!committer) {
        committer = createGroupCommitter((items) => flush(key, items), options)
        committers.set(key, committer)
      }
      try {
        return await committer.submit(item)
      } finally {
        if (committers.get(key)?.idle()) committers.delete(key)
      }
    },
  }
}
