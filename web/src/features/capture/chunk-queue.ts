// The durable upload queue: every recorded chunk is written to IndexedDB before anything else
// and deleted only when the server acknowledged it, so a dropped network, a closed tab or a
// sleeping laptop loses nothing; uploading resumes when the page (any page of the app) opens
// again. Chunks of a session go up one at a time in recording order (only the first WebM chunk
// holds the header), each with its own X-Service-Chunk-ID, so a retried chunk is stored once.
import { ApiError, request } from '../../lib/api.ts'
import type { AudioChunkResult } from '../../lib/types.ts'

export type QueuedChunk = { chunkId: string; sessionId: string; sequence: number; type: string; blob: Blob; createdAt: number }

const DB_NAME = 'confer-capture'
const STORE = 'chunks'

let database: Promise<IDBDatabase> | undefined
function open(): Promise<IDBDatabase> {
  database ??= new Promise((resolve, reject) => {
    const opening = indexedDB.open(DB_NAME, 1)
    opening.onupgradeneeded = () => {
      const store = opening.result.createObjectStore(STORE, { keyPath: 'chunkId' })
      store.createIndex('bySession', ['sessionId', 'sequence'])
    }
    opening.onsuccess = () => resolve(opening.result)
    opening.onerror = () => reject(opening.error)
  })
  return database
}

function transact<T>(mode: IDBTransactionMode, work: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  return open().then((db) => new Promise<T>((resolve, reject) => {
    const tx = db.transaction(STORE, mode)
    const req = work(tx.objectStore(STORE))
    tx.oncomplete = () => resolve(req.result)
    tx.onerror = () => reject(tx.error)
  }))
}

export const chunkStore = {
  put: (chunk: QueuedChunk) => transact('readwrite', (store) => store.put(chunk)),
  delete: (chunkId: string) => transact('readwrite', (store) => store.delete(chunkId)),
  all: () => transact<QueuedChunk[]>('readonly', (store) => store.getAll() as IDBRequest<QueuedChunk[]>),
}

type Listener = (state: UploadState) => void
export type UploadState = { pending: number; uploaded: number; duplicates: number; offline: boolean; lastError?: string; refused?: RefusedChunk }
/** The last chunk the server will never take, and why: its session ended elsewhere (409), is gone (404), … */
export type RefusedChunk = { sessionId: string; status: number; message: string }

const state: UploadState = { pending: 0, uploaded: 0, duplicates: 0, offline: false }
const listeners = new Set<Listener>()
let running = false
let wake: (() => void) | undefined

function publish() { for (const listener of listeners) listener({ ...state }) }

export function onUploadState(listener: Listener): () => void {
  listeners.add(listener)
  listener({ ...state })
  return () => { listeners.delete(listener) }
}

export async function enqueue(chunk: QueuedChunk) {
  await chunkStore.put(chunk)
  state.pending += 1
  publish()
  kick()
}

/** Wakes the uploader (a new chunk, the network came back). */
export function kick() {
  if (wake) { const resume = wake; wake = undefined; resume() }
  if (!running) void run()
}

const sleep = (ms: number) => new Promise<void>((resolve) => {
  const timer = setTimeout(resolve, ms)
  wake = () => { clearTimeout(timer); resolve() }
})

async function run() {
  running = true
  let failures = 0
  try {
    for (;;) {
      const waiting = (await chunkStore.all()).sort((a, b) => a.createdAt - b.createdAt || a.sequence - b.sequence)
      state.pending = waiting.length
      publish()
      const next = waiting[0]
      if (!next) return
      try {
        const result = await request<AudioChunkResult>('POST', `/v1/sessions/${next.sessionId}/audio`, {
          raw: next.blob, headers: { 'content-type': next.type, 'x-service-chunk-id': next.chunkId },
        })
        await chunkStore.delete(next.chunkId)
        if (result.duplicate) state.duplicates += 1
        state.uploaded += 1
        state.offline = false
        state.lastError = undefined
        failures = 0
      } catch (error) {
        const status = error instanceof ApiError ? error.status : 0
        // Offline, throttled, a server error, or signed out (kept until the person signs in again).
        const retryable = status === 0 || status === 401 || status === 429 || status >= 500
        if (!retryable) {
          // The server will never take it (the session ended, was removed, or the chunk is invalid).
          await chunkStore.delete(next.chunkId)
          state.lastError = (error as Error).message
          state.refused = { sessionId: next.sessionId, status, message: (error as Error).message }
          continue
        }
        state.offline = status === 0
        state.lastError = (error as Error).message
        publish()
        failures += 1
        await sleep(Math.min(5_000, 250 * 2 ** Math.min(failures, 5)))
      }
    }
  } finally {
    running = false
    publish()
  }
}

/** Resolves when nothing of the session is waiting any more. */
export async function drained(sessionId: string): Promise<void> {
  for (;;) {
    const waiting = (await chunkStore.all()).filter((chunk) => chunk.sessionId === sessionId)
    if (waiting.length === 0) return
    kick()
    await new Promise((resolve) => setTimeout(resolve, 300))
  }
}

export function startUploader() {
  window.addEventListener('online', kick)
  kick()
}
