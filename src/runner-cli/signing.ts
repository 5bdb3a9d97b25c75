// The runner's Ed25519 key (generated once, kept 0600) and the signature of a completion: over the
// RFC 8785 canonical JSON of {taskId, leaseId, attempt, resultSha256, nonce, timestamp}, where
// resultSha256 is the hex SHA-256 of the canonical JSON of the result. The server checks the same bytes.
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import canonicalize from 'canonicalize'
import { writePrivate } from './files.ts'

export function loadOrCreateKey(file: string): KeyObject {
  if (existsSync(file)) return createPrivateKey(readFileSync(file, 'utf8'))
  const { privateKey } = generateKeyPairSync('ed25519')
  writePrivate(file, privateKey.export({ format: 'pem', type: 'pkcs8' }).toString())
  return privateKey
}

export const publicKeyPem = (privateKey: KeyObject) => createPublicKey(privateKey).export({ format: 'pem', type: 'spki' }).toString()

const canonical = (value: unknown) => canonicalize(value) ?? 'null'

export type Completion = { leaseId: string; attempt: number; result: unknown; nonce: string; timestamp: string; signature: string }

export function signCompletion(privateKey: KeyObject, taskId: string, lease: { leaseId: string; attempt: number }, result: unknown): Completion {
  const nonce = randomBytes(16).toString('hex')
  const timestamp = new Date().toISOString()
  const resultSha256 = createHash('sha256').update(canonical(result)).digest('hex')
  const payload = { taskId, leaseId: lease.leaseId, attempt: lease.attempt, resultSha256, nonce, timestamp }
  const signature = sign(null, Buffer.from(canonical(payload)), privateKey).toString('base64url')
  return { leaseId: lease.leaseId, attempt: lease.attempt, result, nonce, timestamp, signature }
}
