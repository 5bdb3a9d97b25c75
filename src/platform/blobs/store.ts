// Where bytes live (audio chunks, avatars). Filesystem by default, database for cluster mode;
// an S3-compatible store implements the same three calls (types.ts).
import type { Config } from '../../config.ts'
import type { Database } from '../db/index.ts'
import { createDatabaseBlobStore } from './database.ts'
import { createFileBlobStore } from './filesystem.ts'
import type { BlobStore } from './types.ts'

export { assertBlobKey, type BlobStore } from './types.ts'

export function createBlobStore(config: Config, database: Database): BlobStore {
  return config.blobStore === 'database' ? createDatabaseBlobStore(database.db) : createFileBlobStore(config.blobDir)
}
