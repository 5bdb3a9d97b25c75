// The key that signs sessions and asset links. Production requires AUTH_SECRET; development
// keeps a generated one in DATA_DIR so sessions survive restarts.
import { randomBytes } from 'node:crypto'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { Config } from '../../config.ts'

export async function resolveAuthSecret(config: Config): Promise<string> {
  if (config.authSecret) return config.authSecret
  const file = path.join(config.dataDir, 'auth-secret')
  try {
    return (await readFile(file, 'utf8')).trim()
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  await mkdir(config.dataDir, { recursive: true })
  const secret = randomBytes(32).toString('base64url')
  try {
    await writeFile(file, secret, { mode: 0o600, flag: 'wx' })
    return secret
  } catch (error) {
    // Another process created it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return (await readFile(file, 'utf8')).trim()
    throw error
  }
}
