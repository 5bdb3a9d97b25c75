// Files under BLOB_DIR, written atomically: temp file, fsync, rename, fsync of the directory.
// putMany writes its files side by side and syncs each directory once for all of them.
import { randomUUID } from 'node:crypto'
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises'
import path from 'node:path'
import { assertBlobKey, type BlobStore } from './types.ts'

export function createFileBlobStore(root: string): BlobStore {
  const fileOf = (key: string) => {
    assertBlobKey(key)
    return path.join(root, ...key.split('/'))
  }
  const writeFile = async (target: string, data: Uint8Array) => {
    const temporary = path.join(path.dirname(target), `.${path.basename(target)}.${randomUUID()}.tmp`)
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
  }
  const syncDirectory = async (directory: string) => {
    const dir = await open(directory, 'r')
    try {
      await dir.sync()
    } finally {
      await dir.close()
    }
  }
  const putMany = async (entries: { key: string; data: Uint8Array }[]) => {
    const files = entries.map(({ key, data }) => ({ target: fileOf(key), data }))
    const directories = [...new Set(files.map(({ target }) => path.dirname(target)))]
    await Promise.all(directories.map((directory) => mkdir(directory, { recursive: true })))
    await Promise.all(files.map(({ target, data }) => writeFile(target, data)))
    await Promise.all(directories.map(syncDirectory))
  }
  return {
    kind: 'fs',
    async put(key, data) {
      await putMany([{ key, data }])
    },
    putMany,
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
