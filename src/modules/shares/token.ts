// Share tokens: HMAC-SHA256 of the share id under the server secret. Recomputable, so the
// session's link can be shown again without storing the token; looked up by its SHA-256.
import { createHmac } from 'node:crypto'
import { sha256Hex } from '../../platform/ids.ts'

export const shareToken = (secret: string, shareId: string) =>
  createHmac('sha256', secret).update(`share:${shareId}`).digest('base64url')

export const tokenHash = (token: string) => sha256Hex(token)
