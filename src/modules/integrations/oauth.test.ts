// OAuth connections against a real authorization server (oidc-provider): authorization code with
// PKCE through its login and consent pages, the callback storing encrypted tokens, a single-use
// state, a verifier that does not match refused by the provider, and one refresh across callers.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { eachDatabase } from '../../../test/harness.ts'
import { startOAuthServer, type OAuthServer } from '../../../test/providers/oauth-server.ts'
import { workTeam } from '../work/testing.ts'
import { refreshConnection } from './connections.ts'
import { keyringOf } from './secrets.ts'

const REDIRECT_URI = 'http://localhost:8080/v1/integrations/oauth/callback'
let oauth: OAuthServer
const env: Record<string, string> = {}
beforeAll(async () => {
  oauth = await startOAuthServer(REDIRECT_URI)
  Object.assign(env, {
    INTEGRATIONS_LINEAR_CLIENT_ID: oauth.clientId, INTEGRATIONS_LINEAR_CLIENT_SECRET: oauth.clientSecret,
    INTEGRATIONS_LINEAR_AUTHORIZE_URL: oauth.authorizeUrl, INTEGRATIONS_LINEAR_TOKEN_URL: oauth.tokenUrl,
    INTEGRATIONS_LINEAR_SCOPES: 'openid offline_access',
  })
})
afterAll(async () => {
  await oauth?.close()
})

eachDatabase('OAuth connections (oidc-provider)', (h) => {
  it('answers 409 oauth_not_configured for a tool without an OAuth app here, and for one that has no OAuth', async () => {
    const team = await workTeam(h, [])
    const project = (await team.owner.post('/v1/projects', { name: 'No app' })).json()
    for (const [service, actionId] of [['github', 'github.create_issue'], ['email', 'email.send']] as const) {
      const started = await team.owner.post('/v1/integrations/connections/oauth', { projectId: project.id, service, actionIds: [actionId] })
      expect(started.statusCode, started.body).toBe(409)
      expect(started.headers['content-type']).toContain('application/problem+json')
      expect(started.json()).toMatchObject({ code: 'oauth_not_configured', detail: expect.stringContaining('connect with a credential instead') })
    }
  })

  it('connects with code + PKCE, stores the tokens encrypted, and refreshes once for concurrent callers', async () => {
    const team = await workTeam(h, [])
    const project = (await team.owner.post('/v1/projects', { name: 'OAuth' })).json()
    const started = await team.owner.post('/v1/integrations/connections/oauth', { projectId: project.id, service: 'linear', actionIds: ['linear.create_issue'] })
    expect(started.statusCode, started.body).toBe(200)
    const { authorizationURL, connection } = started.json()
    expect(authorizationURL.startsWith(oauth.authorizeUrl)).toBe(true)
    const back = await oauth.authorize(authorizationURL)
    const state = back.searchParams.get('state')!
    const code = back.searchParams.get('code')!
    expect(code).toBeTruthy()

    const callback = await h.anonymous.get(`/v1/integrations/oauth/callback?state=${encodeURIComponent(state)}&code=${encodeURIComponent(code)}`)
    expect(callback.statusCode, callback.body).toBe(200)
    expect(callback.json()).toMatchObject({ connectionId: connection.id, status: 'active', tokenExpiresAt: expect.any(String) })
    expect(oauth.tokenCalls.at(-1)).toEqual({ grantType: 'authorization_code', status: 200 })
    const row = await h.database.db.selectFrom('integration_connections').selectAll().where('id', '=', connection.id).executeTakeFirstOrThrow()
    const tokens = JSON.parse(keyringOf(h.app.deps).decrypt({ ciphertext: row.secret_ciphertext!, nonce: row.secret_nonce!, keyVersion: row.secret_key_version! }, row.id))
    expect(tokens).toMatchObject({ accessToken: expect.any(String), refreshToken: expect.any(String) })
    expect(row.secret_ciphertext).not.toContain(tokens.accessToken)
    // The state was spent: the same redirect again is refused before the provider is asked.
    const calls = oauth.tokenCalls.length
    expect((await h.anonymous.get(`/v1/integrations/oauth/callback?state=${encodeURIComponent(state)}&code=${encodeURIComponent(code)}`)).statusCode).toBe(400)
    expect(oauth.tokenCalls.length).toBe(calls)

    // Two callers at once near expiry: one refresh grant, both see the new expiry.
    await h.database.db.updateTable('integration_connections').set({ token_expires_at: new Date(Date.now() + 60_000).toISOString() }).where('id', '=', connection.id).execute()
    const [a, b] = await Promise.all([refreshConnection(h.app.deps, connection.id), refreshConnection(h.app.deps, connection.id)])
    expect(oauth.tokenCalls.slice(calls)).toEqual([{ grantType: 'refresh_token', status: 200 }])
    expect(a.token_expires_at).toBe(b.token_expires_at)
    const refreshed = JSON.parse(keyringOf(h.app.deps).decrypt({ ciphertext: a.secret_ciphertext!, nonce: a.secret_nonce!, keyVersion: a.secret_key_version! }, a.id))
    expect(refreshed.accessToken).not.toBe(tokens.accessToken)
  })

  it('is refused by the provider when the verifier does not match the challenge', async () => {
    const team = await workTeam(h, [])
    const project = (await team.owner.post('/v1/projects', { name: 'OAuth PKCE' })).json()
    const { authorizationURL, connection } = (await team.owner.post('/v1/integrations/connections/oauth', { projectId: project.id, service: 'linear', actionIds: ['linear.create_issue'] })).json()
    const back = await oauth.authorize(authorizationURL)
    const { sha256Hex } = await import('../../platform/ids.ts')
    const stateHash = sha256Hex(back.searchParams.get('state')!)
    const forged = keyringOf(h.app.deps).encrypt('a-verifier-that-does-not-match-the-challenge-at-all', stateHash)
    await h.database.db.updateTable('integration_oauth_states').set({ verifier_ciphertext: forged.ciphertext, verifier_nonce: forged.nonce }).where('state_hash', '=', stateHash).execute()
    const callback = await h.anonymous.get(`/v1/integrations/oauth/callback?state=${encodeURIComponent(back.searchParams.get('state')!)}&code=${encodeURIComponent(back.searchParams.get('code')!)}`)
    expect(callback.statusCode).toBe(422)
    expect(callback.json()).toMatchObject({ code: 'provider_refused', detail: expect.stringContaining('invalid_grant') })
    expect(oauth.tokenCalls.at(-1)).toMatchObject({ grantType: 'authorization_code', status: 400 })
    const row = await h.database.db.selectFrom('integration_connections').select(['status', 'secret_ciphertext']).where('id', '=', connection.id).executeTakeFirstOrThrow()
    expect(row).toEqual({ status: 'pending', secret_ciphertext: null })
  })
}, { env })
