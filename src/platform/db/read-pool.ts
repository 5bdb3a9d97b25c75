// Read-only SQLite connections on worker threads, for reads heavy enough to hold up the main
// connection (full-text search over every transcript): several run at once, on other cores, while
// the main thread goes on serving. Each request goes to the worker with the fewest in flight.
import { Worker } from 'node:worker_threads'

export type ReadPool = {
  /** Rows of one read-only statement (a compiled Kysely query: sql and parameters). */
  all<R>(query: { sql: string; parameters: readonly unknown[] }): Promise<R[]>
  close(): Promise<void>
}

type Pending = { resolve(rows: unknown[]): void; reject(error: Error): void }
type Slot = { worker: Worker; pending: Map<number, Pending> }

export function createReadPool(file: string, size: number): ReadPool {
  let nextId = 0
  const slots: Slot[] = Array.from({ length: size }, () => {
    const worker = new Worker(new URL('./read-worker.ts', import.meta.url), { workerData: { file } })
    const slot: Slot = { worker, pending: new Map() }
    worker.on('message', (message: { id: number; rows?: unknown[]; error?: string }) => {
      const waiting = slot.pending.get(message.id)
      slot.pending.delete(message.id)
      if (message.error !== undefined) waiting?.reject(new Error(message.error))
      else waiting?.resolve(message.rows ?? [])
    })
    // A worker that dies fails what it was doing; the caller's error handling answers 500 for it.
    worker.on('error', (error) => {
      for (const waiting of slot.pending.values()) waiting.reject(error)
      slot.pending.clear()
    })
    worker.unref()
    return slot
  })
  return {
    all<R>(query: { sql: string; parameters: readonly unknown[] }) {
      const slot = slots.reduce((best, candidate) => (candidate.pending.size < best.pending.size ? candidate : best))
      const id = (nextId += 1)
      return new Promise<R[]>((resolve, reject) => {
        slot.pending.set(id, { resolve: resolve as (rows: unknown[]) => void, reject })
        slot.worker.postMessage({ id, sql: query.sql, parameters: query.parameters })
      })
    },
    async close() {
      await Promise.all(slots.map((slot) => slot.worker.terminate()))
    },
  }
}
