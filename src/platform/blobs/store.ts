// Where bytes live (audio chunks, avatars). Filesystem by default, database for cluster mode;
// an S3-compatible store implements the same three calls.
import type { Config } from '../../config.ts'
import type { Database } from '../db/index.ts'
import { createDatabaseBlobStore } from './database.ts'
import { createFileBlobStore } from './filesystem.ts'

export type BlobStore = {
  readonly kind: 'fs' | 'database'
  /** Durable when the promise resolves: a crash after that never loses the bytes. */
  put(key: string, data: Uint8Array): Promise<void>
  get(key: string): Promise<Uint8Array | undefined>
  delete(key: string): Promise<void>
}

export function createBlobStore(config: Config, database: Database): BlobStore {
  return config.blobStore === 'database' ? createDatabaseBlobStore(database.db) : createFileBlobStore(config.blobDir)
}

/** Keys are slash-separated segments of [A-Za-z0-9_.-]; anything else is a programming error. */
export function assertBlobKey(key: string) {
  if (!/^[A-Za-z0-9_-][A-Za-z0-9_.-]*(\/[A-Za-z0-9_-][A-Za-z0-9_.-]*)*$/.test(key)) throw new Error(`invalid blob key ${key}`)
}
