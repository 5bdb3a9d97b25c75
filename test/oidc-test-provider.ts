// A test provider that speaks the OpenID Connect protocol, in process on 127.0.0.1: discovery,
// authorization code with PKCE (S256), client_secret_basic/post at the token endpoint, an RS256
// id_token whose key is served at jwks_uri, and userinfo. It is not a real identity provider: the
// person who "signs in" at /authorize is whoever the test puts in `nextPerson`.
import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export type OidcPerson = { sub: string; email: string; name: string }

type PendingCode = { clientId: string; redirectUri: string; codeChallenge: string | null; nonce: string | null; person: OidcPerson }

export type TokenRequest = { clientId: string; clientSecret: string; grantType: string | null; hadCodeVerifier: boolean }

export type OidcTestProvider = {
  issuer: string
  discoveryUrl: string
  clientId: string
  clientSecret: string
  /** who signs in at the next /authorize */
  nextPerson: OidcPerson
  /** every token-endpoint call, as the provider saw it */
  tokenRequests: TokenRequest[]
  close(): Promise<void>
}

const base64url = (data: Buffer | string) => Buffer.from(data).toString('base64url')

export async function startOidcTestProvider(): Promise<OidcTestProvider> {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  const kid = randomBytes(8).toString('hex')
  const jwk = { ...publicKey.export({ format: 'jwk' }), kid, use: 'sig', alg: 'RS256' }
  const codes = new Map<string, PendingCode>()
  const accessTokens = new Map<string, OidcPerson>()

  const signIdToken = (claims: Record<string, unknown>) => {
    const header = base64url(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid }))
    const payload = base64url(JSON.stringify(claims))
    return `${header}.${payload}.${base64url(sign('sha256', Buffer.from(`${header}.${payload}`), privateKey))}`
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => json(response, 500, { error: 'server_error', error_description: String(error) }))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  const provider: OidcTestProvider = {
    issuer,
    discoveryUrl: `${issuer}/.well-known/openid-configuration`,
    clientId: 'confer-test-client',
    clientSecret: randomBytes(16).toString('hex'),
    nextPerson: { sub: 'subject-1', email: 'oidc-person@example.com', name: 'OIDC Person' },
    tokenRequests: [],
    close: () => new Promise((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    }),
  }

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? '/', issuer)
    if (url.pathname === '/.well-known/openid-configuration') {
      return json(response, 200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        userinfo_endpoint: `${issuer}/userinfo`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
        scopes_supported: ['openid', 'email', 'profile'],
      })
    }
    if (url.pathname === '/jwks') return json(response, 200, { keys: [jwk] })
    if (url.pathname === '/authorize') return authorize(url, response)
    if (url.pathname === '/token' && request.method === 'POST') return token(request, response)
    if (url.pathname === '/userinfo') {
      const person = accessTokens.get((request.headers.authorization ?? '').replace(/^Bearer /, ''))
      return person ? json(response, 200, { ...person, email_verified: true }) : json(response, 401, { error: 'invalid_token' })
    }
    return json(response, 404, { error: 'not_found' })
  }

  function authorize(url: URL, response: ServerResponse) {
    const query = url.searchParams
    const redirectUri = query.get('redirect_uri')
    if (query.get('client_id') !== provider.clientId || !redirectUri || query.get('response_type') !== 'code') {
      return json(response, 400, { error: 'invalid_request' })
    }
    if (query.get('code_challenge') && query.get('code_challenge_method') !== 'S256') return json(response, 400, { error: 'invalid_request' })
    const code = randomBytes(16).toString('hex')
    codes.set(code, {
      clientId: provider.clientId, redirectUri, codeChallenge: query.get('code_challenge'),
      nonce: query.get('nonce'), person: { ...provider.nextPerson },
    })
    const back = new URL(redirectUri)
    back.searchParams.set('code', code)
    if (query.get('state')) back.searchParams.set('state', query.get('state')!)
    back.searchParams.set('iss', issuer)
    response.writeHead(302, { location: back.toString() }).end()
  }

  async function token(request: IncomingMessage, response: ServerResponse) {
    const form = new URLSearchParams(await readBody(request))
    const basic = request.headers.authorization?.match(/^Basic (.+)$/)?.[1]
    const [basicId, basicSecret] = basic ? Buffer.from(basic, 'base64').toString().split(':').map(decodeURIComponent) : []
    const clientId = basicId ?? form.get('client_id') ?? ''
    const clientSecret = basicSecret ?? form.get('client_secret') ?? ''
    const verifier = form.get('code_verifier')
    provider.tokenRequests.push({ clientId, clientSecret, grantType: form.get('grant_type'), hadCodeVerifier: verifier !== null })
    if (clientId !== provider.clientId || clientSecret !== provider.clientSecret) return json(response, 401, { error: 'invalid_client' })
    const pending = codes.get(form.get('code') ?? '')
    codes.delete(form.get('code') ?? '')
    if (form.get('grant_type') !== 'authorization_code' || !pending || pending.redirectUri !== form.get('redirect_uri')) {
      return json(response, 400, { error: 'invalid_grant' })
    }
    if (pending.codeChallenge && (!verifier || base64url(createHash('sha256').update(verifier).digest()) !== pending.codeChallenge)) {
      return json(response, 400, { error: 'invalid_grant', error_description: 'PKCE verification failed' })
    }
    const accessToken = randomBytes(16).toString('hex')
    accessTokens.set(accessToken, pending.person)
    const now = Math.floor(Date.now() / 1000)
    const idToken = signIdToken({
      iss: issuer, aud: provider.clientId, sub: pending.person.sub, iat: now, exp: now + 300,
      email: pending.person.email, email_verified: true, name: pending.person.name,
      ...(pending.nonce ? { nonce: pending.nonce } : {}),
    })
    return json(response, 200, { access_token: accessToken, token_type: 'Bearer', expires_in: 3600, scope: 'openid email profile', id_token: idToken })
  }

  return provider
}

function json(response: ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(body))
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}
