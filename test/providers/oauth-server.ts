// A real OAuth 2.0 authorization server for the integrations' OAuth connections: oidc-provider
// with one confidential client, PKCE required, refresh tokens for `offline_access` (granted with
// prompt=consent), its development login and consent pages driven by POSTing their forms.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import Provider from 'oidc-provider'

export type OAuthServer = {
  issuer: string
  clientId: string
  clientSecret: string
  authorizeUrl: string
  tokenUrl: string
  /** every token-endpoint call: grant type and whether the provider accepted it */
  tokenCalls: { grantType: string; status: number }[]
  /** signs in as `login` and consents; answers the redirect to the client (with code and state) */
  authorize(authorizationURL: string, login?: string): Promise<URL>
  close(): Promise<void>
}

export async function startOAuthServer(redirectUri: string): Promise<OAuthServer> {
  const server: Server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const clientId = 'confer-integrations'
  const clientSecret = 'a-client-secret-for-tests-only'
  const provider = new Provider(issuer, {
    clients: [{
      client_id: clientId, client_secret: clientSecret, redirect_uris: [redirectUri],
      grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'client_secret_post',
    }],
    pkce: { required: () => true },
    scopes: ['openid', 'offline_access'],
    features: { devInteractions: { enabled: true } },
    cookies: { keys: ['cookie-key-for-tests-only'] },
    findAccount: async (_ctx: unknown, accountId: string) => ({ accountId, claims: async () => ({ sub: accountId }) }),
  } as never)
  const tokenCalls: OAuthServer['tokenCalls'] = []
  const callback = provider.callback()
  server.on('request', (request, response) => {
    if (request.url?.startsWith('/token')) {
      let body = ''
      request.on('data', (chunk: Buffer) => { body += chunk.toString() })
      const grantType = new Promise<string>((resolve) => request.on('end', () => resolve(new URLSearchParams(body).get('grant_type') ?? '')))
      response.on('finish', async () => tokenCalls.push({ grantType: await grantType, status: response.statusCode }))
    }
    callback(request, response)
  })

  async function authorize(authorizationURL: string, login = 'alice') {
    const jar = new Map<string, string>()
    const remember = (response: Response) => {
      for (const cookie of response.headers.getSetCookie()) {
        const [pair] = cookie.split(';')
        const [name, ...value] = pair!.split('=')
        jar.set(name!.trim(), value.join('='))
      }
    }
    const cookie = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ')
    let url = new URL(authorizationURL)
    for (let step = 0; step < 12; step += 1) {
      if (url.href.startsWith(redirectUri)) return url
      let response = await fetch(url, { redirect: 'manual', headers: { cookie: cookie() } })
      remember(response)
      if (response.status === 200 && url.pathname.startsWith('/interaction/')) {
        const page = await response.text()
        const prompt = /name="prompt" value="(login|consent)"/.exec(page)?.[1]
        if (!prompt) throw new Error(`unexpected interaction page: ${page.slice(0, 300)}`)
        const form = new URLSearchParams(prompt === 'login' ? { prompt, login, password: 'any' } : { prompt })
        response = await fetch(url, { method: 'POST', redirect: 'manual', body: form, headers: { cookie: cookie(), 'content-type': 'application/x-www-form-urlencoded' } })
        remember(response)
      }
      const location = response.headers.get('location')
      if (!location) throw new Error(`authorization stopped at ${url.pathname} with ${response.status}: ${(await response.text()).slice(0, 300)}`)
      url = new URL(location, issuer)
    }
    throw new Error('too many redirects while authorizing')
  }

  return {
    issuer, clientId, clientSecret, authorizeUrl: `${issuer}/auth`, tokenUrl: `${issuer}/token`, tokenCalls, authorize,
    close: () => new Promise((resolve) => { server.close(() => resolve()); server.closeAllConnections() }),
  }
}
