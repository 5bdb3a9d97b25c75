// Approval tokens (DESIGN §8): `<nonce>.<mac>` where mac = HMAC-SHA256 over the prepared action's
// id, the payload hash, the connection, the catalog action and its version, and the expiry. The
// table keeps only the token's SHA-256 (single use: flipped to used in the transaction that starts
// the execution). Any change to what was approved makes the MAC fail.
import { createHmac, hkdfSync, randomBytes } from 'node:crypto'
import canonicalize from 'canonicalize'
import { constantTimeEqual, sha256Hex } from '../../platform/ids.ts'

export type Binding = { actionRowId: string; payloadHash: string; connectionId: string; actionId: string; actionVersion: number; expiresAt: string }

const keys = new Map<string, Buffer>()
function keyFor(secret: string) {
  let key = keys.get(secret)
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', secret, 'confer-integrations', 'approval-tokens v1', 32))
    keys.set(secret, key)
  }
  return key
}

const mac = (secret: string, nonce: string, binding: Binding) => createHmac('sha256', keyFor(secret))
  .update([nonce, binding.actionRowId, binding.payloadHash, binding.connectionId, binding.actionId, binding.actionVersion, binding.expiresAt].join('|'))
  .digest('base64url')

export function issueApprovalToken(secret: string, binding: Binding) {
  const nonce = randomBytes(24).toString('base64url')
  const token = `${nonce}.${mac(secret, nonce, binding)}`
  return { token, tokenHash: sha256Hex(token) }
}

/** True when `token` was issued for exactly this binding. */
export function tokenMatches(secret: string, token: string, binding: Binding) {
  const [nonce, given, ...rest] = token.split('.')
  if (!nonce || !given || rest.length > 0) return false
  return constantTimeEqual(given, mac(secret, nonce, binding))
}

export const canonicalPayload = (payload: unknown) => canonicalize(payload)!
export const payloadHashOf = (canonical: string) => sha256Hex(canonical)
