// Connections: made with a credential (api_key, custom_credential, no_auth) or through OAuth
// (authorization code + PKCE, a state row, the callback storing tokens), their secrets sealed by
// secrets.ts, and OAuth tokens refreshed ahead of expiry by one node at a time (a lease column).
import { createHash, randomBytes } from 'node:crypto'
import { Value } from 'typebox/value'
import type { TSchema } from 'typebox'
import type { AppDeps } from '../../platform/deps.ts'
import { AppError, badRequest, notFound, type FieldError } from '../../platform/http/errors.ts'
import { nowIso, newId, sha256Hex } from '../../platform/ids.ts'
import { enqueue } from '../../platform/jobs/index.ts'
import type { Executor } from '../../platform/realtime/types.ts'
import { assertUsable, requireProject, type Caller } from './caller.ts'
import { grantOnCreate } from './access.ts'

export { requireProject, type Caller }
import { connectorOf } from './connectors/index.ts'
import { ProviderError, type ConnectionContext, type Connector } from './connectors/types.ts'
import { presentConnection } from './presenter.ts'
import * as repo from './repo.ts'
import type { CredentialConnectionInput, OAuthConnectionInput } from './schemas.ts'
import { keyringOf } from './secrets.ts'


const OAUTH_STATE_TTL_MS = 10 * 60_000
/** tokens are refreshed this long before they expire */
export const REFRESH_AHEAD_MS = 5 * 60_000
const REFRESH_LEASE_MS = 30_000
export const REFRESH_JOB = 'integrations.refresh-token'

/** Field errors of `value` against a JSON Schema, under `prefix`. */
export function schemaErrors(schema: TSchema, value: unknown, prefix: string): FieldError[] {
  if (Value.Check(schema, value)) return []
  return [...Value.Errors(schema, value)].slice(0, 20).map((error) => ({
    field: `${prefix}${error.instancePath.replaceAll('/', '.')}`,
    code: error.keyword,
    message: error.keyword === 'additionalProperties'
      ? `unknown field ${(error.params as { additionalProperties?: string[] }).additionalProperties?.join(', ') ?? ''}`.trim()
      : error.message,
  }))
}

export function assertValid(schema: TSchema, value: unknown, prefix: string) {
  const errors = schemaErrors(schema, value, prefix)
  if (errors.length > 0) throw new AppError('validation_failed', `${prefix} does not match its schema: ${errors[0]!.field} ${errors[0]!.message}`, { errors })
}

function checkConnectionInput(service: string, actionIds: string[], settings: unknown) {
  const connector = connectorOf(service) ?? (() => { throw badRequest('service', 'unknown_service', `unknown service ${service}`) })()
  const foreign = actionIds.filter((id) => !connector.actions.some((action) => action.id === id))
  if (foreign.length > 0) throw badRequest('actionIds', 'not_of_service', `${foreign.join(', ')} not offered by ${service}`)
  if (connector.settings) assertValid(connector.settings, settings ?? {}, 'settings')
  return connector
}

/**
 * Checks a credential with the connector's one documented cheap call before the connection is stored.
 * A credential the provider refuses (401) is a 422 `credential_refused` and nothing is stored. A
 * provider that does not answer in time, fails or limits the rate does not block connecting: the
 * answer is the sentence stored as the connection's `lastError` (it is checked again on first use).
 */
/** The provider, as its refusal names it (a connector's title names the product: "GitHub Issues"). */
const PROVIDER_NAMES: Record<string, string> = { github: 'GitHub', linear: 'Linear', slack: 'Slack' }

async function verifyCredential(deps: AppDeps, connector: Connector, credential: Record<string, string>, settings: unknown): Promise<string | null> {
  if (!connector.verify) return null
  const provider = PROVIDER_NAMES[connector.service] ?? connector.title
  const controller = new AbortController()
  let timer: NodeJS.Timeout | undefined
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => { controller.abort(); reject(new ProviderError('no answer in time', { retryable: true })) }, deps.config.integrations.verifyTimeoutMs)
  })
  const context: ConnectionContext = {
    connectionId: 'unsaved', credential, settings: (settings ?? {}) as Record<string, unknown>, config: deps.config, mailer: deps.mailer, signal: controller.signal,
  }
  try {
    await Promise.race([connector.verify(context), timedOut])
    return null
  } catch (error) {
    if (error instanceof ProviderError && error.status === 401) {
      throw new AppError('credential_refused', `${provider} refused this credential: check that it is complete and still valid (or make a new one) and connect again.`, {
        errors: [{ field: 'credential', code: 'refused', message: `${provider} did not accept it` }],
      })
    }
    const why = error instanceof ProviderError && error.status !== undefined ? `it answered ${error.status}` : 'it could not be reached'
    return `Credential not checked: ${provider} did not confirm it when connecting (${why}). It is checked when the connection is first used.`
  } finally {
    clearTimeout(timer)
  }
}

const aliasFor = (service: string) => `${service}-${randomBytes(4).toString('hex')}`

function sealRow(deps: AppDeps, id: string, secret: Record<string, string> | null) {
  if (secret === null) return { secret_ciphertext: null, secret_nonce: null, secret_key_version: null }
  const sealed = keyringOf(deps).encrypt(JSON.stringify(secret), id)
  return { secret_ciphertext: sealed.ciphertext, secret_nonce: sealed.nonce, secret_key_version: sealed.keyVersion }
}

export async function createCredentialConnection(deps: AppDeps, caller: Caller, input: CredentialConnectionInput) {
  const connector = checkConnectionInput(input.service, input.actionIds, input.settings)
  if (!connector.authTypes.includes(input.authType)) {
    throw badRequest('authType', 'unsupported_auth_type', `${input.service} connects with ${connector.authTypes.join(' or ')}`)
  }
  if (input.authType === 'no_auth') {
    if (Object.keys(input.credential).length > 0) throw badRequest('credential', 'not_empty', 'a no_auth connection takes an empty credential')
  } else if (connector.credential) {
    assertValid(connector.credential, input.credential, 'credential')
  }
  const workspaceId = caller.membership.workspaceId
  await requireProject(deps, workspaceId, input.projectId)
  const unchecked = input.authType === 'no_auth' ? null : await verifyCredential(deps, connector, input.credential as Record<string, string>, input.settings)
  const id = newId('con')
  const now = nowIso()
  const row = {
    id, workspace_id: workspaceId, project_id: input.projectId, service: input.service, auth_type: input.authType,
    status: 'active' as const, alias: aliasFor(input.service), action_ids: JSON.stringify(input.actionIds),
    settings: JSON.stringify(input.settings ?? {}),
    ...sealRow(deps, id, input.authType === 'no_auth' ? null : input.credential as Record<string, string>),
    token_expires_at: null, refresh_locked_until: null, last_error: unchecked, created_by: caller.actor.accountId, created_at: now, updated_at: now,
  }
  await deps.database.db.transaction().execute(async (trx) => {
    await repo.insertConnection(trx, row)
    await grantOnCreate(deps, trx, { workspaceId, projectId: input.projectId, connectionId: id, actionIds: input.actionIds, accountId: caller.actor.accountId })
  })
  return presentConnection({ ...row })
}

const base64url = (bytes: Buffer) => bytes.toString('base64url')
export const oauthRedirectUri = (deps: AppDeps) => `${deps.config.publicBase}/v1/integrations/oauth/callback`

export async function startOAuthConnection(deps: AppDeps, caller: Caller, input: OAuthConnectionInput) {
  const connector = checkConnectionInput(input.service, input.actionIds, input.settings)
  const app = deps.config.integrations.oauth[input.service]
  if (!connector.authTypes.includes('oauth') || !app) {
    throw new AppError('oauth_not_configured', `OAuth for ${input.service} is not configured on this server; connect with a credential instead.`)
  }
  const workspaceId = caller.membership.workspaceId
  await requireProject(deps, workspaceId, input.projectId)
  const id = newId('con')
  const now = new Date()
  const expiresAt = new Date(now.getTime() + OAUTH_STATE_TTL_MS).toISOString()
  const state = base64url(randomBytes(32))
  const verifier = base64url(randomBytes(48))
  const challenge = base64url(createHash('sha256').update(verifier).digest())
  const stateHash = sha256Hex(state)
  const sealedVerifier = keyringOf(deps).encrypt(verifier, stateHash)
  const row = {
    id, workspace_id: workspaceId, project_id: input.projectId, service: input.service, auth_type: 'oauth' as const,
    status: 'pending' as const, alias: aliasFor(input.service), action_ids: JSON.stringify(input.actionIds),
    settings: JSON.stringify(input.settings ?? {}), secret_ciphertext: null, secret_nonce: null, secret_key_version: null,
    token_expires_at: null, refresh_locked_until: null, last_error: null, created_by: caller.actor.accountId,
    created_at: now.toISOString(), updated_at: now.toISOString(),
  }
  const redirectUri = oauthRedirectUri(deps)
  await deps.database.db.transaction().execute(async (trx) => {
    await repo.insertConnection(trx, row)
    await trx.insertInto('integration_oauth_states').values({
      state_hash: stateHash, connection_id: id, workspace_id: workspaceId, verifier_ciphertext: sealedVerifier.ciphertext,
      verifier_nonce: sealedVerifier.nonce, key_version: sealedVerifier.keyVersion, redirect_uri: redirectUri,
      expires_at: expiresAt, used_at: null, created_at: now.toISOString(),
    }).execute()
    await grantOnCreate(deps, trx, { workspaceId, projectId: input.projectId, connectionId: id, actionIds: input.actionIds, accountId: caller.actor.accountId })
  })
  const url = new URL(app.authorizeUrl)
  url.searchParams.set('response_type', 'code')
  url.searchParams.set('client_id', app.clientId)
  url.searchParams.set('redirect_uri', redirectUri)
  url.searchParams.set('scope', app.scopes)
  url.searchParams.set('state', state)
  url.searchParams.set('code_challenge', challenge)
  url.searchParams.set('code_challenge_method', 'S256')
  // Ask for consent every time: it is what grants refresh tokens (offline access) where the
  // provider distinguishes, and connecting a tool is a deliberate act. Providers ignore it otherwise.
  url.searchParams.set('prompt', 'consent')
  return { authorizationURL: url.href, connectionAlias: row.alias, expiresAt, connection: presentConnection(row) }
}

type TokenAnswer = { access_token?: string; refresh_token?: string; expires_in?: number; error?: string; error_description?: string }

async function tokenRequest(deps: AppDeps, service: string, form: Record<string, string>): Promise<TokenAnswer> {
  const app = deps.config.integrations.oauth[service]
  if (!app) throw new AppError('oauth_not_configured', `OAuth for ${service} is not configured on this server.`)
  const body = new URLSearchParams({ ...form, client_id: app.clientId, ...(app.clientSecret ? { client_secret: app.clientSecret } : {}) })
  let response: Response
  try {
    response = await fetch(app.tokenUrl, { method: 'POST', body, headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' }, signal: AbortSignal.timeout(15_000) })
  } catch {
    throw new AppError('provider_unavailable', `The ${service} token endpoint could not be reached.`)
  }
  const answer = await response.json().catch(() => ({})) as TokenAnswer
  if (!response.ok || answer.error || !answer.access_token) {
    // The provider's own words, never the request (it carries the code and verifier).
    throw new AppError('provider_refused', `The ${service} token endpoint refused: ${answer.error ?? response.status}`)
  }
  return answer
}

function tokensSecret(answer: TokenAnswer, previousRefresh?: string) {
  const secret: Record<string, string> = { accessToken: answer.access_token! }
  const refresh = answer.refresh_token ?? previousRefresh
  if (refresh) secret.refreshToken = refresh
  return secret
}

const expiryOf = (answer: TokenAnswer) => (typeof answer.expires_in === 'number' && answer.expires_in > 0
  ? new Date(Date.now() + answer.expires_in * 1000).toISOString() : null)

/** GET /v1/integrations/oauth/callback: the provider's redirect with `code` and `state`. */
export async function completeOAuth(deps: AppDeps, query: { state: string; code?: string | undefined; error?: string | undefined }) {
  const { db } = deps.database
  const stateHash = sha256Hex(query.state)
  // The state is single use: the first callback to flip used_at owns it.
  const claimed = await db.updateTable('integration_oauth_states').set({ used_at: nowIso() })
    .where('state_hash', '=', stateHash).where('used_at', 'is', null).where('expires_at', '>', nowIso())
    .returningAll().executeTakeFirst()
  if (!claimed) throw badRequest('state', 'invalid_state', 'unknown, used or expired OAuth state')
  const connection = await repo.findConnectionById(db, claimed.connection_id) ?? notFound('connection')
  if (query.error || !query.code) {
    await repo.updateConnection(db, connection.id, { status: 'error', last_error: `authorization refused: ${(query.error ?? 'no code').slice(0, 100)}`, updated_at: nowIso() })
    throw badRequest('code', 'authorization_refused', 'the provider returned no authorization code')
  }
  const verifier = keyringOf(deps).decrypt({ ciphertext: claimed.verifier_ciphertext, nonce: claimed.verifier_nonce, keyVersion: claimed.key_version }, stateHash)
  const answer = await tokenRequest(deps, connection.service, {
    grant_type: 'authorization_code', code: query.code, redirect_uri: claimed.redirect_uri, code_verifier: verifier,
  })
  const tokenExpiresAt = expiryOf(answer)
  await db.transaction().execute(async (trx) => {
    const stored = await repo.updateConnection(trx, connection.id, {
      ...sealRow(deps, connection.id, tokensSecret(answer)), status: 'active', token_expires_at: tokenExpiresAt, last_error: null, updated_at: nowIso(),
    })
    if (!stored) assertUsable({ alias: connection.alias, status: 'revoked' })
    await scheduleRefresh(trx, connection.id, tokenExpiresAt)
  })
  return { connectionId: connection.id, connectionAlias: connection.alias, status: 'active' as const, ...(tokenExpiresAt ? { tokenExpiresAt } : {}) }
}

async function scheduleRefresh(executor: Executor, connectionId: string, expiresAt: string | null) {
  if (!expiresAt) return
  await enqueue(executor, REFRESH_JOB, { connectionId }, {
    runAt: new Date(new Date(expiresAt).getTime() - REFRESH_AHEAD_MS), dedupeKey: `${connectionId}|${expiresAt}`,
  })
}

const needsRefresh = (row: repo.ConnectionRow) => row.auth_type === 'oauth' && row.token_expires_at !== null
  && new Date(row.token_expires_at).getTime() - Date.now() < REFRESH_AHEAD_MS

/**
 * Refreshes the connection's OAuth tokens unless another node is at it (lease on the row): the
 * winner exchanges the refresh token once; the others wait for its result. Answers the fresh row.
 */
export async function refreshConnection(deps: AppDeps, connectionId: string, force = false): Promise<repo.ConnectionRow> {
  const { db } = deps.database
  for (let waited = 0; waited < 50; waited += 1) {
    const row = await repo.findConnectionById(db, connectionId) ?? notFound('connection', connectionId)
    if (!force && !needsRefresh(row)) return row
    if (row.status !== 'active' || row.secret_ciphertext === null) return row
    const now = nowIso()
    const leased = await db.updateTable('integration_connections')
      .set({ refresh_locked_until: new Date(Date.now() + REFRESH_LEASE_MS).toISOString() })
      .where('id', '=', connectionId).where((eb) => eb.or([eb('refresh_locked_until', 'is', null), eb('refresh_locked_until', '<', now)]))
      .where('updated_at', '=', row.updated_at)
      .executeTakeFirst()
    if (Number(leased.numUpdatedRows) === 0) {
      await new Promise((resolve) => setTimeout(resolve, 200))
      force = false
      continue
    }
    const secret = openSecret(deps, row)
    try {
      if (!secret.refreshToken) throw new AppError('connection_not_ready', 'The connection has no refresh token: connect it again.')
      const answer = await tokenRequest(deps, row.service, { grant_type: 'refresh_token', refresh_token: secret.refreshToken })
      const tokenExpiresAt = expiryOf(answer)
      await db.transaction().execute(async (trx) => {
        const stored = await repo.updateConnection(trx, row.id, {
          ...sealRow(deps, row.id, tokensSecret(answer, secret.refreshToken)), token_expires_at: tokenExpiresAt,
          refresh_locked_until: null, last_error: null, updated_at: nowIso(),
        })
        // Revoked meanwhile: the new tokens are dropped, and nothing more is scheduled.
        if (stored) await scheduleRefresh(trx, row.id, tokenExpiresAt)
      })
    } catch (error) {
      await repo.updateConnection(db, row.id, { refresh_locked_until: null, last_error: `token refresh failed: ${(error as Error).message.slice(0, 200)}`, updated_at: nowIso() })
      throw error
    }
    return await repo.findConnectionById(db, connectionId) ?? notFound('connection', connectionId)
  }
  throw new AppError('connection_not_ready', 'Another node is still refreshing this connection\'s token; try again.')
}

function openSecret(deps: AppDeps, row: repo.ConnectionRow): Record<string, string> {
  if (row.secret_ciphertext === null) return {}
  return JSON.parse(keyringOf(deps).decrypt({ ciphertext: row.secret_ciphertext, nonce: row.secret_nonce!, keyVersion: row.secret_key_version! }, row.id)) as Record<string, string>
}

/** What a connector needs to call the provider: the fresh, decrypted credential. */
export async function connectionContext(deps: AppDeps, row: repo.ConnectionRow, signal?: AbortSignal): Promise<ConnectionContext> {
  assertUsable(row)
  const fresh = needsRefresh(row) ? await refreshConnection(deps, row.id) : row
  assertUsable(fresh)
  return {
    connectionId: row.id, credential: openSecret(deps, fresh), settings: JSON.parse(fresh.settings) as Record<string, unknown>,
    config: deps.config, mailer: deps.mailer, ...(signal ? { signal } : {}),
  }
}
