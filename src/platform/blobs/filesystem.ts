// Files under BLOB_DIR, written atomically: temp file, fsync, rename, fsync of the directory.
import { randomUUID } from 'node:crypto'
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises'
import path from 'node:path'
import { assertBlobKey, type BlobStore } from './types.ts'

export function createFileBlobStore(root: string): BlobStore {
  const fileOf = (key: string) => {
    assertBlobKey(key)
    return path.join(root, ...key.split('/'))
  }
  return {
    kind: 'fs',
    async put(key, data) {
      const target = fileOf(key)
      const directory = path.dirname(target)
      await mkdir(directory, { recursive: true })
      const temporary = path.join(directory, `.${path.basename(target)}.${randomUUID()}.tmp`)
      const handle = await open(temporary, 'wx')
      try {
        await handle.writeFile(data)
        await handle.sync()
      } finally {
        await handle.close()
      }
      try {
        await rename(temporary, target)
      } catch (error) {
        await rm(temporary, { force: true })
        throw error
      }
      const dir = await open(directory, 'r')
      try {
        await dir.sync()
      } finally {
        await dir.close()
      }
    },
    async get(key) {
      try {
        return new Uint8Array(await readFile(fileOf(key)))
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
        throw error
      }
    },
    async delete(key) {
      await rm(fileOf(key), { force: true })
    },
  }
}
