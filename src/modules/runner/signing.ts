// Runner keys and signed completions: Ed25519 (node:crypto) over the RFC 8785 canonical JSON of
// {taskId, leaseId, attempt, resultSha256, nonce, timestamp}; resultSha256 is the hex SHA-256 of
// the canonical JSON of the result. `confer runner` (src/runner-cli/signing.ts) signs the same bytes.
import { createPublicKey, verify, type KeyObject } from 'node:crypto'
import canonicalize from 'canonicalize'
import { sha256Hex } from '../../platform/ids.ts'

const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex')

export const canonicalJson = (value: unknown): string => canonicalize(value) ?? 'null'

/** The key as SPKI PEM, or undefined when it is not an Ed25519 public key. */
export function normalizePublicKey(text: string): string | undefined {
  let key: KeyObject
  try {
    if (text.includes('-----BEGIN')) key = createPublicKey(text)
    else {
      const bytes = Buffer.from(text.trim().replaceAll('-', '+').replaceAll('_', '/'), 'base64')
      if (bytes.length === 32) key = createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, bytes]), format: 'der', type: 'spki' })
      else key = createPublicKey({ key: bytes, format: 'der', type: 'spki' })
    }
  } catch {
    return undefined
  }
  if (key.asymmetricKeyType !== 'ed25519') return undefined
  return key.export({ format: 'pem', type: 'spki' }).toString()
}

export const keyFingerprint = (pem: string) => sha256Hex(createPublicKey(pem).export({ format: 'der', type: 'spki' }))

export type SignedCompletion = { taskId: string; leaseId: string; attempt: number; resultSha256: string; nonce: string; timestamp: string }

export const resultSha256 = (result: unknown) => sha256Hex(canonicalJson(result))

export function verifyCompletion(pem: string, payload: SignedCompletion, signature: string): boolean {
  const bytes = Buffer.from(signature, 'base64url')
  if (bytes.length !== 64) return false
  try {
    return verify(null, Buffer.from(canonicalJson(payload)), createPublicKey(pem), bytes)
  } catch {
    return false
  }
}
