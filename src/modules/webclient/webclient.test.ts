// The web client as the server serves it: index.html for the client's pages (never cached), the
// hashed assets cached for a year and sent pre-compressed, the API's 404s untouched (a browser's
// navigation to an unknown page gets the client with a 404), and the
// first load's JavaScript within its 250 KB (compressed) budget.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eachDatabase } from '../../../test/harness.ts'
import { startOidcTestProvider } from '../../../test/oidc-test-provider.ts'
import { indexReader, WEB_DIST } from './index.ts'
import { mailDelivery } from './client-config.ts'

const ROOT = path.resolve(WEB_DIST, '../..')
const JS_BUDGET_BYTES = 250 * 1024

// The harness builds the app once per database; the client must be built before that.
if (!existsSync(path.join(WEB_DIST, 'index.html'))) {
  execFileSync(process.execPath, [path.join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'], { cwd: ROOT, stdio: 'inherit' })
}
const indexHtml = () => readFileSync(path.join(WEB_DIST, 'index.html'), 'utf8')
const scripts = () => [...indexHtml().matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((found) => found[1]!)

eachDatabase('web client serving', (h) => {
  beforeAll(() => expect(scripts().length).toBeGreaterThan(0))

  it('answers the client pages with index.html, not cached, without a session', async () => {
    for (const url of ['/', '/share/abc123', '/invite/abc123', '/sessions/ses_1', '/board', '/record', '/search?q=x']) {
      const response = await h.anonymous.get(url)
      expect(response.statusCode, url).toBe(200)
      expect(response.headers['content-type']).toMatch(/^text\/html/)
      expect(response.headers['cache-control']).toBe('no-cache')
      expect(response.body).toContain('<div id="root"></div>')
    }
  })

  it('sends hashed assets pre-compressed and cached for a year', async () => {
    const script = scripts()[0]!
    const brotli = await h.anonymous.get(`/${script}`, { 'accept-encoding': 'br, gzip' })
    expect(brotli.statusCode).toBe(200)
    expect(brotli.headers['content-encoding']).toBe('br')
    expect(brotli.headers['content-type']).toMatch(/javascript/)
    expect(brotli.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(brotli.rawPayload.length).toBe(statSync(path.join(WEB_DIST, `${script}.br`)).size)
    const gzip = await h.anonymous.get(`/${script}`, { 'accept-encoding': 'gzip' })
    expect(gzip.headers['content-encoding']).toBe('gzip')
    const plain = await h.anonymous.get(`/${script}`, { 'accept-encoding': 'identity' })
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.rawPayload.length).toBe(statSync(path.join(WEB_DIST, script)).size)
  })

  it('leaves unknown API paths and files to the API\'s 404 problem', async () => {
    for (const url of ['/v1/nothing-here', '/api/v1/nothing-here', '/assets/missing.js', '/assets/../../package.json', '/nothing-here']) {
      const response = await h.anonymous.get(url)
      expect(response.statusCode, url).toBe(404)
      expect(response.body, url).not.toContain('"name": "confer"')
    }
    const problem = await h.anonymous.get('/v1/nothing-here')
    expect(problem.headers['content-type']).toContain('application/problem+json')
    const openapi = (await h.anonymous.get('/v1/openapi.json')).json() as { paths: Record<string, unknown> }
    expect(Object.keys(openapi.paths).filter((item) => !item.startsWith('/v1/') && item !== '/healthz')).toEqual([])
  })

  it('answers a browser\'s navigation to an unknown page with the client and 404; API paths and files stay problems', async () => {
    const html = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' }
    for (const url of ['/nothing-here', '/sesions/ses_1', '/projects-old/x?y=1']) {
      const response = await h.anonymous.get(url, html)
      expect(response.statusCode, url).toBe(404)
      expect(response.headers['content-type'], url).toMatch(/^text\/html/)
      expect(response.body, url).toContain('<div id="root"></div>')
    }
    for (const url of ['/v1/nothing-here', '/api/v1/nothing-here', '/assets/missing.js', '/robots.txt', '/nothing-here']) {
      const response = await h.anonymous.get(url, url === '/nothing-here' ? { accept: 'application/json' } : html)
      expect(response.statusCode, url).toBe(404)
      expect(response.headers['content-type'], url).toContain('application/problem+json')
      expect(response.json().code, url).toBe('route_not_found')
    }
    expect((await h.anonymous.request('POST', '/nothing-here', { headers: html })).json().code).toBe('route_not_found')
    // An API path with an id longer than any stays the router's `not_found`, page fallback or not.
    expect((await h.anonymous.get(`/v1/projects/${'p'.repeat(5000)}`, html)).json().code).toBe('not_found')
  })

  it('keeps the first load within 250 KB of compressed JavaScript', () => {
    const bytes = scripts().reduce((sum, script) => sum + statSync(path.join(WEB_DIST, `${script}.br`)).size, 0)
    console.log(`first-load JavaScript: ${(bytes / 1024).toFixed(1)} KB brotli`)
    expect(bytes).toBeLessThanOrEqual(JS_BUDGET_BYTES)
  })
})

// The sign-in providers reach the client in index.html (and any client at GET /api/auth/providers):
// ids and names only, never a client id or secret.
const oidc = await startOidcTestProvider()
afterAll(() => oidc.close())
const configOf = (body: string) => JSON.parse(/<script id="confer-config" type="application\/json">([^<]*)<\/script>/.exec(body)![1]!) as { authProviders: unknown[]; mailDelivery: string; integrationOAuth: string[]; sessionCookie: boolean }

eachDatabase('web client config, providers configured', (h) => {
  it('lists GitHub and the OpenID Connect provider in index.html and at /api/auth/providers, without secrets', async () => {
    const page = await h.anonymous.get('/invite/abc123')
    const expected = [{ id: 'github', name: 'GitHub', type: 'social' }, { id: 'acme-sso', name: 'Acme </script> SSO', type: 'oidc' }]
    expect(configOf(page.body).authProviders).toEqual(expected)
    expect(page.body).not.toContain('Acme </script>')
    expect(page.body).not.toContain('github-client-secret')
    expect(page.body).not.toContain('github-client-id')
    const listed = await h.anonymous.get('/api/auth/providers')
    expect(listed.statusCode).toBe(200)
    expect(listed.json()).toEqual({ providers: expected })
    expect(listed.body).not.toContain('oidc-client-secret')
  })

  it('names the integration services the server has an OAuth app for, and nothing of the app', async () => {
    const page = await h.anonymous.get('/integrations')
    expect(configOf(page.body).integrationOAuth).toEqual(['slack'])
    expect(page.body).not.toContain('slack-app-client-id')
    expect(page.body).not.toContain('slack-app-secret')
  })
}, {
  env: {
    INTEGRATIONS_SLACK_CLIENT_ID: 'slack-app-client-id', INTEGRATIONS_SLACK_CLIENT_SECRET: 'slack-app-secret',
    GITHUB_CLIENT_ID: 'github-client-id', GITHUB_CLIENT_SECRET: 'github-client-secret',
    OIDC_PROVIDER_ID: 'acme-sso', OIDC_PROVIDER_NAME: 'Acme </script> SSO', OIDC_DISCOVERY_URL: oidc.discoveryUrl,
    OIDC_CLIENT_ID: 'oidc-client-id', OIDC_CLIENT_SECRET: 'oidc-client-secret',
  },
})

eachDatabase('web client config, no provider', (h) => {
  it('lists no provider', async () => {
    const config = configOf((await h.anonymous.get('/')).body)
    expect(config.authProviders).toEqual([])
    // No OAuth app for any tool: the connect form offers only credentials.
    expect(config.integrationOAuth).toEqual([])
    // No SMTP_URL outside production: the sign-in page says the code is in the server log.
    expect(config.mailDelivery).toBe('log')
    // Whether the page came with a session cookie (its validity is the API's business).
    expect(config.sessionCookie).toBe(false)
    const withCookie = await h.anonymous.get('/board', { cookie: 'other=1; service-auth.session_token=anything' })
    expect(configOf(withCookie.body).sessionCookie).toBe(true)
    expect(withCookie.headers.vary).toContain('cookie')
    expect((await h.anonymous.get('/api/auth/providers')).json()).toEqual({ providers: [] })
  })
})

describe('where sign-in codes go, as the client is told', () => {
  it('smtp with SMTP_URL, the log outside production, the outbox table in production', () => {
    expect(mailDelivery({ smtpUrl: 'smtp://127.0.0.1:2525', nodeEnv: 'production' })).toBe('smtp')
    expect(mailDelivery({ smtpUrl: undefined, nodeEnv: 'development' })).toBe('log')
    expect(mailDelivery({ smtpUrl: undefined, nodeEnv: 'production' })).toBe('outbox')
  })
})

describe('index.html after a rebuild while the server runs', () => {
  it('is read again when the file changes, and the last copy is kept while it is missing', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'confer-index-'))
    const file = path.join(dir, 'index.html')
    writeFileSync(file, '<script src="/assets/index-old.js"></script>')
    const read = indexReader(file, (html) => `${html}!`)
    expect(read()).toBe('<script src="/assets/index-old.js"></script>!')
    writeFileSync(file, '<script src="/assets/index-new.js"></script>')
    utimesSync(file, new Date(), new Date(Date.now() + 5_000))
    expect(read()).toBe('<script src="/assets/index-new.js"></script>!')
    rmSync(file)
    expect(read()).toBe('<script src="/assets/index-new.js"></script>!')
    rmSync(dir, { recursive: true })
  })
})
