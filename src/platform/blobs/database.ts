// Blobs in the `blobs` table, so every node of a cluster sees them without shared disks.
import type { Db } from '../db/index.ts'
import { nowIso } from '../ids.ts'
import { assertBlobKey, type BlobStore } from './types.ts'

export function createDatabaseBlobStore(db: Db): BlobStore {
  return {
    kind: 'database',
    async put(key, data) {
      assertBlobKey(key)
      await db.insertInto('blobs').values({ key, data, byte_size: data.byteLength, created_at: nowIso() })
        .onConflict((oc) => oc.column('key').doUpdateSet({ data, byte_size: data.byteLength }))
        .execute()
    },
    async get(key) {
      assertBlobKey(key)
      const row = await db.selectFrom('blobs').select('data').where('key', '=', key).executeTakeFirst()
      return row ? new Uint8Array(row.data) : undefined
    },
    async delete(key) {
      assertBlobKey(key)
      await db.deleteFrom('blobs').where('key', '=', key).execute()
    },
  }
}
