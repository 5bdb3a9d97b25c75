// Where bytes live (audio chunks, avatars). Filesystem by default; for a cluster, the database or
// an S3-compatible bucket (every store implements the same calls, types.ts).
import type { Config } from '../../config.ts'
import type { Database } from '../db/index.ts'
import { createDatabaseBlobStore } from './database.ts'
import { createFileBlobStore } from './filesystem.ts'
import { createS3BlobStore } from './s3.ts'
import type { BlobStore } from './types.ts'

export { assertBlobKey, type BlobStore } from './types.ts'

export function createBlobStore(config: Config, database: Database): BlobStore {
  if (config.blobStore === 's3') {
    if (!config.s3) throw new Error('BLOB_STORE is s3 but no S3 settings were read')
    return createS3BlobStore(config.s3)
  }
  return config.blobStore === 'database' ? createDatabaseBlobStore(database.db) : createFileBlobStore(config.blobDir)
}
