// Account use cases: bootstrap (select, create or join a workspace), current account, profile, avatar.
import { fileTypeFromBuffer } from 'file-type'
import type { AppDeps } from '../../platform/deps.ts'
import type { AccessCache } from '../../platform/auth/access-cache.ts'
import type { Actor } from '../../platform/auth/actor.ts'
import { AppError } from '../../platform/http/errors.ts'
import { newId, nowIso } from '../../platform/ids.ts'
import { assertTimeZone, canonicalLanguageTag, requiredText } from '../../platform/http/validators.ts'
import { storeAsset, signedAssetUrl } from '../assets/index.ts'
import { accountSettings as repo, findPendingInvitationForEmail, findUsableInvitation, joinByInvitation, pendingInvitationFor, type InvitationRow } from '../workspace/index.ts'
import { updateUserName } from './repo.ts'
import { presentAccount, presentMembership, presentWorkspace } from './presenter.ts'
import type { BootstrapInput, ProfileInput } from './schemas.ts'

export const AVATAR_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif']
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024

type Outcome = 'selected' | 'created' | 'joined'

export async function bootstrapAccount(deps: AppDeps, actor: Actor, input: BootstrapInput) {
  const { db, dialect } = deps.database
  const result = await db.transaction().execute(async (trx) => {
    const now = nowIso()
    await repo.ensureSettings(trx, actor.accountId, now)
    // Serialises concurrent bootstraps of one account: only one may create a workspace.
    await repo.lockSettings(dialect, trx, actor.accountId)

    const select = async (workspaceId: string, outcome: Outcome) => {
      await repo.updateSettings(trx, actor.accountId, { active_workspace_id: workspaceId, updated_at: now })
      return { workspaceId, outcome }
    }
    // The same join as POST /v1/invitations/{token}/accept (workspace module).
    const join = async (invitation: InvitationRow) => {
      await joinByInvitation(deps.events, trx, actor, invitation, now)
      return select(invitation.workspace_id, 'joined')
    }

    if (input.invitationToken) return join(await findUsableInvitation(trx, input.invitationToken, now))
    if (input.workspaceId) {
      const membership = await repo.findMembership(trx, actor.accountId, input.workspaceId)
      if (!membership) throw new AppError('not_found', `No workspace with id ${input.workspaceId}.`)
      return select(input.workspaceId, 'selected')
    }
    const settings = await repo.findSettings(trx, actor.accountId)
    if (settings?.active_workspace_id && await repo.findMembership(trx, actor.accountId, settings.active_workspace_id)) {
      return { workspaceId: settings.active_workspace_id, outcome: 'selected' as Outcome }
    }
    const [latest] = await repo.listMemberships(trx, actor.accountId)
    if (latest) return select(latest.id, 'selected')
    const invitation = await findPendingInvitationForEmail(trx, actor.email.toLowerCase(), now)
    if (invitation) return join(invitation)

    const workspaceId = newId('wsp')
    const name = input.workspaceName?.trim() || `${actor.name || actor.email.split('@')[0]}'s workspace`
    await repo.insertWorkspace(trx, { id: workspaceId, name, created_by: actor.accountId, created_at: now, updated_at: now })
    await repo.insertMembership(trx, {
      workspace_id: workspaceId, account_id: actor.accountId, access_role: 'owner',
      content_permission: 'edit', job_role: null, created_at: now, updated_at: now,
    })
    return select(workspaceId, 'created')
  })
  const current = await readCurrent(deps, actor.accountId)
  return { outcome: result.outcome, account: current.account, workspace: current.workspace!, membership: current.membership! }
}

type Current = Awaited<ReturnType<typeof readCurrent>>
const currentCaches = new WeakMap<AppDeps, AccessCache<Current>>()

/**
 * Kept like the actor (auth/access-cache.ts): at most 1 s, and forgotten when access changes. A
 * cached answer is returned as it is, not as a promise: Fastify sends it without a microtask.
 */
export function currentAccount(deps: AppDeps, actor: Actor): Current | Promise<Current> {
  let cache = currentCaches.get(deps)
  if (!cache) currentCaches.set(deps, cache = deps.accessCaches.create<Current>())
  return cache.get(actor.accountId) ?? cache.remember(actor.accountId, () => readCurrent(deps, actor.accountId)).then((current) => current!)
}

/** The account, its active workspace and membership, and all its workspaces: two queries. */
async function readCurrent(deps: AppDeps, accountId: string) {
  const { db } = deps.database
  const [user, memberships] = await Promise.all([repo.findUserWithSettings(db, accountId), repo.listMemberships(db, accountId)])
  const active = memberships.find((row) => row.id === user.active_workspace_id)
  // Without any workspace, bootstrap would join this invitation rather than create one: said first.
  const pendingInvitation = memberships.length === 0 ? await pendingInvitationFor(db, user.email, nowIso()) : undefined
  return {
    account: presentAccount(deps, user),
    ...(pendingInvitation ? { pendingInvitation } : {}),
    ...(active ? {
      workspace: presentWorkspace(active),
      membership: presentMembership({ ...active, created_at: active.joined_at, updated_at: active.member_updated_at }),
    } : {}),
    workspaces: memberships.map((row) => ({ id: row.id, name: row.name, accessRole: row.access_role })),
  }
}

export async function updateProfile(deps: AppDeps, actor: Actor, input: ProfileInput) {
  const name = input.name === undefined ? undefined : requiredText('name', input.name)
  const locale = canonicalLanguageTag('locale', input.locale)
  assertTimeZone('timezone', input.timezone)
  const { db } = deps.database
  const now = nowIso()
  await db.transaction().execute(async (trx) => {
    await repo.ensureSettings(trx, actor.accountId, now)
    if (name !== undefined) await updateUserName(trx, actor.accountId, name, now)
    if (locale !== undefined || input.timezone !== undefined) {
      await repo.updateSettings(trx, actor.accountId, {
        ...(locale !== undefined ? { locale } : {}),
        ...(input.timezone !== undefined ? { timezone: input.timezone } : {}),
        updated_at: now,
      })
    }
  })
  return { account: presentAccount(deps, await repo.findUserWithSettings(db, actor.accountId)) }
}

export async function replaceAvatar(deps: AppDeps, actor: Actor, body: unknown) {
  if (!Buffer.isBuffer(body) || body.byteLength === 0) {
    throw new AppError('unsupported_media_type', `Send the image itself as the request body with its image content type (${AVATAR_TYPES.join(', ')}).`)
  }
  const detected = await fileTypeFromBuffer(body)
  if (!detected || !AVATAR_TYPES.includes(detected.mime)) {
    throw new AppError('unsupported_image', `The body is not a ${AVATAR_TYPES.join(', ')} image${detected ? ` (its content is ${detected.mime})` : ''}.`)
  }
  const asset = await storeAsset(deps, {
    ownerAccountId: actor.accountId,
    workspaceId: actor.membership?.workspaceId ?? null,
    purpose: 'avatar',
    contentType: detected.mime,
    data: new Uint8Array(body),
  })
  const { db } = deps.database
  const now = nowIso()
  await repo.ensureSettings(db, actor.accountId, now)
  await repo.updateSettings(db, actor.accountId, { avatar_asset_id: asset.id, updated_at: now })
  const link = signedAssetUrl(deps, asset.id)
  return { account: presentAccount(deps, await repo.findUserWithSettings(db, actor.accountId)), assetId: asset.id, avatarURL: link.url, expiresAt: link.expiresAt }
}
