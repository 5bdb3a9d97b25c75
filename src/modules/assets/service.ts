// Assets are stored bytes (avatars now; attachments later) served to anyone holding a signed,
// expiring link: HMAC-SHA256 over (asset id, expiry) with the server secret.
import { createHmac } from 'node:crypto'
import type { AppDeps } from '../../platform/deps.ts'
import { AppError } from '../../platform/http/errors.ts'
import { constantTimeEqual, newId, nowIso, sha256Hex } from '../../platform/ids.ts'

export type NewAsset = {
  ownerAccountId: string
  workspaceId: string | null
  purpose: 'avatar'
  contentType: string
  data: Uint8Array
}

export async function storeAsset(deps: AppDeps, input: NewAsset) {
  const id = newId('ast')
  const blobKey = `assets/${id}`
  // Bytes first: a row never points at a blob that is not durable yet.
  await deps.blobs.put(blobKey, input.data)
  const row = {
    id,
    owner_account_id: input.ownerAccountId,
    workspace_id: input.workspaceId,
    purpose: input.purpose,
    content_type: input.contentType,
    byte_size: input.data.byteLength,
    sha256: sha256Hex(input.data),
    blob_key: blobKey,
    created_at: nowIso(),
  }
  await deps.database.db.insertInto('assets').values(row).execute()
  return row
}

const signature = (secret: string, assetId: string, expires: number) =>
  createHmac('sha256', secret).update(`asset:${assetId}:${expires}`).digest('base64url')

/** An absolute, signed link to an asset that works until `expiresAt`. */
export function signedAssetUrl(deps: AppDeps, assetId: string, now = Date.now()) {
  const expires = Math.floor(now / 1000) + deps.config.assetTokenTtlSeconds
  const token = `${expires}.${signature(deps.secret, assetId, expires)}`
  return { url: `${deps.config.publicBase}/v1/assets/${assetId}?token=${token}`, expiresAt: new Date(expires * 1000).toISOString() }
}

export async function readAssetWithToken(deps: AppDeps, assetId: string, token: string) {
  const [expiresText, given] = token.split('.')
  const expires = Number(expiresText)
  if (!given || !Number.isInteger(expires) || !constantTimeEqual(given, signature(deps.secret, assetId, expires))) {
    throw new AppError('invalid_token', 'This asset link is not valid.')
  }
  if (expires * 1000 <= Date.now()) throw new AppError('token_expired', 'This asset link has expired; ask for a fresh one.')
  const asset = await deps.database.db.selectFrom('assets').selectAll().where('id', '=', assetId).executeTakeFirst()
  const data = asset ? await deps.blobs.get(asset.blob_key) : undefined
  if (!asset || !data) throw new AppError('not_found', `No asset with id ${assetId}.`)
  return { asset, data, expiresAt: expires * 1000 }
}
