// Connection secrets at rest (DESIGN §3): AES-256-GCM with a fresh 96-bit nonce per row, the tag
// appended to the ciphertext, and the key's version stored beside it. Version 0 is derived from the
// server's auth secret (HKDF) and is always readable; INTEGRATIONS_ENCRYPTION_KEYS adds versioned
// keys, the highest of which encrypts. Rotation re-encrypts older rows in the background
// (rotateSecrets) while every version stays readable: no downtime. Plain secrets never leave this
// module's service layer: not in answers, not in logs, not in errors.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto'
import type { AppDeps } from '../../platform/deps.ts'

export type Keyring = {
  currentVersion: number
  encrypt(plain: string, associated: string): { ciphertext: string; nonce: string; keyVersion: number }
  decrypt(sealed: { ciphertext: string; nonce: string; keyVersion: number }, associated: string): string
}

const TAG_BYTES = 16

export function createKeyring(secret: string, configured: { version: number; key: Buffer }[]): Keyring {
  const derived = Buffer.from(hkdfSync('sha256', secret, 'confer-integrations', 'connection-secrets v0', 32))
  const keys = new Map<number, Buffer>([[0, derived], ...configured.map((entry) => [entry.version, entry.key] as const)])
  const currentVersion = Math.max(...keys.keys())
  return {
    currentVersion,
    encrypt(plain, associated) {
      const nonce = randomBytes(12)
      const cipher = createCipheriv('aes-256-gcm', keys.get(currentVersion)!, nonce)
      // The row's id is authenticated: a ciphertext copied onto another row does not decrypt.
      cipher.setAAD(Buffer.from(associated))
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()])
      return { ciphertext: body.toString('base64'), nonce: nonce.toString('base64'), keyVersion: currentVersion }
    },
    decrypt(sealed, associated) {
      const key = keys.get(sealed.keyVersion)
      if (!key) throw new Error(`connection secret uses key version ${sealed.keyVersion}, which is not configured`)
      const body = Buffer.from(sealed.ciphertext, 'base64')
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.nonce, 'base64'))
      decipher.setAAD(Buffer.from(associated))
      decipher.setAuthTag(body.subarray(body.length - TAG_BYTES))
      return Buffer.concat([decipher.update(body.subarray(0, body.length - TAG_BYTES)), decipher.final()]).toString('utf8')
    },
  }
}

const keyrings = new WeakMap<AppDeps, Keyring>()

export function keyringOf(deps: AppDeps): Keyring {
  let keyring = keyrings.get(deps)
  if (!keyring) {
    keyring = createKeyring(deps.secret, deps.config.integrations.encryptionKeys)
    keyrings.set(deps, keyring)
  }
  return keyring
}

/**
 * Re-encrypts, with the newest key, every connection secret and OAuth verifier sealed with an older
 * one; each row in its own short statement, guarded by its old version so a concurrent writer wins.
 * Answers how many rows moved.
 */
export async function rotateSecrets(deps: AppDeps): Promise<number> {
  const keyring = keyringOf(deps)
  const { db } = deps.database
  let moved = 0
  const stale = await db.selectFrom('integration_connections').select(['id', 'secret_ciphertext', 'secret_nonce', 'secret_key_version'])
    .where('secret_key_version', '<>', keyring.currentVersion).where('secret_ciphertext', 'is not', null).execute()
  for (const row of stale) {
    const plain = keyring.decrypt({ ciphertext: row.secret_ciphertext!, nonce: row.secret_nonce!, keyVersion: row.secret_key_version! }, row.id)
    const sealed = keyring.encrypt(plain, row.id)
    const result = await db.updateTable('integration_connections')
      .set({ secret_ciphertext: sealed.ciphertext, secret_nonce: sealed.nonce, secret_key_version: sealed.keyVersion })
      .where('id', '=', row.id).where('secret_key_version', '=', row.secret_key_version).where('secret_nonce', '=', row.secret_nonce)
      .executeTakeFirst()
    moved += Number(result.numUpdatedRows)
  }
  const states = await db.selectFrom('integration_oauth_states').selectAll()
    .where('key_version', '<>', keyring.currentVersion).where('used_at', 'is', null).execute()
  for (const row of states) {
    const plain = keyring.decrypt({ ciphertext: row.verifier_ciphertext, nonce: row.verifier_nonce, keyVersion: row.key_version }, row.state_hash)
    const sealed = keyring.encrypt(plain, row.state_hash)
    const result = await db.updateTable('integration_oauth_states')
      .set({ verifier_ciphertext: sealed.ciphertext, verifier_nonce: sealed.nonce, key_version: sealed.keyVersion })
      .where('state_hash', '=', row.state_hash).where('verifier_nonce', '=', row.verifier_nonce).executeTakeFirst()
    moved += Number(result.numUpdatedRows)
  }
  return moved
}
