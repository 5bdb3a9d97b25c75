// Web client: serves the browser app built from web/ (web/dist, made by `npm run build:web`) on
// the web origin — its hashed assets (cached for a year, served pre-compressed as Brotli or gzip)
// and index.html for the pages the client routes itself (`/`, `/share/{token}`, `/invite/{token}`,
// `/sessions/…`, …), and for a browser's navigation to an unknown page, with a 404. Exports nothing
// for other modules. Without a build it serves nothing, and those paths answer the API's 404 problem.
import { existsSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import fastifyStatic from '@fastify/static'
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import { readCookie } from '../../platform/auth/actor.ts'
import { sessionCookieName } from '../../platform/auth/auth.ts'
import { signInProviders } from '../../platform/auth/providers.ts'
import type { AppDeps } from '../../platform/deps.ts'
import { sendRouteNotFound } from '../../platform/http/problem.ts'
import { mailDelivery, withClientConfig } from './client-config.ts'

export const WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../web/dist')

/** First path segments the client routes itself (web/src/app/routes.ts); everything else stays the API's. */
export const CLIENT_ROUTES = ['share', 'invite', 'sessions', 'record', 'projects', 'board', 'search', 'notifications', 'members', 'memory', 'voice', 'signin', 'welcome', 'billing', 'runners', 'integrations'] as const

// Public pages, and not counted against the API's per-minute limit: one page load fetches several files.
const routeConfig = { access: 'public', rateLimit: false } as const

export function webclientModule(deps: AppDeps, root = WEB_DIST): FastifyPluginAsync {
  return async (app) => {
    if (!existsSync(path.join(root, 'index.html'))) {
      app.log.warn(`no web client build in ${root}: run \`npm run build:web\``)
      return
    }
    await app.register(fastifyStatic, { root, serve: false, preCompressed: true })

    // index.html carries the client's non-secret settings (the sign-in providers), so the sign-in
    // page needs no request to draw its buttons (docs/decisions.md, "Web client").
    const settings = {
      authProviders: signInProviders(deps.config), mailDelivery: mailDelivery(deps.config),
      integrationOAuth: Object.keys(deps.config.integrations.oauth).sort(),
    }
    const cookieName = sessionCookieName(deps.config.secureCookies)
    const signedIn = indexReader(path.join(root, 'index.html'), (html) => withClientConfig(html, { ...settings, sessionCookie: true }))
    const signedOut = indexReader(path.join(root, 'index.html'), (html) => withClientConfig(html, { ...settings, sessionCookie: false }))
    const sendIndex = (request: FastifyRequest, reply: FastifyReply) => reply
      .header('cache-control', 'no-cache')
      .header('vary', 'cookie')
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'same-origin')
      .type('text/html; charset=utf-8')
      .send(readCookie(request.headers.cookie, cookieName) === undefined ? signedOut() : signedIn())

    app.get('/', { schema: { hide: true }, config: routeConfig }, (request, reply) => sendIndex(request, reply))
    for (const segment of CLIENT_ROUTES) {
      app.get(`/${segment}`, { schema: { hide: true }, config: routeConfig }, (request, reply) => sendIndex(request, reply))
      app.get(`/${segment}/*`, { schema: { hide: true }, config: routeConfig }, (request, reply) => sendIndex(request, reply))
    }
    // A browser opening an address nobody serves (a mistyped link) gets the client, which says there
    // is no such page, with a 404; API clients, API paths and files keep the API's 404 problem.
    // The first segment is matched by a pattern that leaves API paths and files to the router as
    // before (a too-long id there stays `not_found`), so only the path's first segment is tested.
    const unknownPage = (request: FastifyRequest, reply: FastifyReply) =>
      (wantsPage(request) ? sendIndex(request, reply.code(404)) : sendRouteNotFound(request, reply))
    for (const url of [`/:page(${PAGE_SEGMENT})`, `/:page(${PAGE_SEGMENT})/*`]) {
      app.get(url, { schema: { hide: true }, config: { access: 'public' } }, unknownPage)
    }
    // Content-hashed file names: a changed file gets a new name, so it may be kept for a year.
    app.get('/assets/*', { schema: { hide: true }, config: routeConfig }, (request, reply) => {
      const file = (request.params as { '*': string })['*']
      return reply.sendFile(path.posix.join('assets', file), root, { maxAge: '365d', immutable: true })
    })
    for (const file of ['favicon.svg', 'manifest.webmanifest']) {
      app.get(`/${file}`, { schema: { hide: true }, config: routeConfig }, (_request, reply) =>
        reply.sendFile(file, root, { maxAge: '1d' }))
    }
  }
}

/** A first path segment that may be a page: not the API's (`v1`, `api`, `docs`), not `assets`, no file name. */
const PAGE_SEGMENT = '^(?!(?:v1|api|assets|docs)$)[^.]+$'

/** A browser's navigation to what could be a page: it accepts HTML, and the path names no file. */
function wantsPage(request: FastifyRequest): boolean {
  const accept = request.headers.accept
  if (typeof accept !== 'string' || !accept.includes('text/html')) return false
  return !(request.url.split('?')[0]!.split('/').at(-1) ?? '').includes('.')
}

/**
 * index.html as served, read again when the file changes: `npm run build:web` while the server
 * runs replaces the hashed assets, and a page naming the old ones would load nothing. While the
 * file is missing (a build in progress) the last good copy is kept.
 */
export function indexReader(file: string, transform: (html: string) => string): () => string {
  let stamp = -1
  let html = ''
  return () => {
    const mtime = (() => { try { return statSync(file).mtimeMs } catch { return stamp } })()
    if (mtime !== stamp) {
      html = transform(readFileSync(file, 'utf8'))
      stamp = mtime
    }
    return html
  }
}
