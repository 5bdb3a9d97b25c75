import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { expect, it } from 'vitest'
import { eachDatabase } from '../../../test/harness.ts'
import type { ExternalContextQuery } from '../../platform/ports.ts'
import { joinWorkspace } from '../sessions/testing.ts'

// A test double of the integrations module's port: one permitted connection of one project.
const asked: ExternalContextQuery[] = []
const PERMITTED = { projectName: 'Connected' }

function fakeConnector(query: ExternalContextQuery) {
  asked.push(query)
  if (query.projectId !== PERMITTED.projectName) return Promise.resolve({ items: [], connectionIds: [] })
  return Promise.resolve({
    connectionIds: ['con_github'],
    items: [
      { itemId: 'github:acme/web#12', connectionId: 'con_github', provider: 'github', kind: 'issue', title: 'Checkout times out on Safari', snippet: 'Payment step hangs for 30 s on Safari 18.', url: 'https://github.com/acme/web/issues/12' },
      { itemId: 'github:acme/web#15', connectionId: 'con_github', provider: 'github', kind: 'issue', title: 'Retry payment webhook', snippet: 'Webhook retries are missing.', url: 'https://github.com/acme/web/issues/15' },
      { itemId: 'slack:other', connectionId: 'con_not_permitted', provider: 'slack', kind: 'message', title: 'leak', snippet: 'must not appear', url: 'https://example.invalid' },
    ],
  })
}

const root = mkdtempSync(path.join(tmpdir(), 'confer-codebases-'))
/** A fresh git repository under the allowed root: a README and one TypeScript file. */
function makeRepository() {
  const repository = mkdtempSync(path.join(root, 'shop-'))
  mkdirSync(path.join(repository, 'src'), { recursive: true })
  writeFileSync(path.join(repository, 'README.md'), '# Shop\n\nThe shop service.\n\n## Checkout\n\nCheckout retries the payment three times before it gives up.\n')
  writeFileSync(path.join(repository, 'src', 'checkout.ts'), [
    'import { charge } from "./payments"',
    '',
    '/** Retries a failed card payment with exponential backoff. */',
    'export async function retryPayment(orderId: string, attempts = 3): Promise<boolean> {',
    '  return charge(orderId, attempts)',
    '}',
    '',
    'export interface CheckoutOptions { currency: string }',
    '',
    'export class CheckoutFlow {',
    '  start(): void {}',
    '}',
    '',
  ].join('\n'))
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repository, stdio: 'pipe' })
  git('init', '-q')
  git('add', '.')
  git('-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-qm', 'first')

  return { repository, git }
}

eachDatabase('external context and sources', (h) => {
  it('asks the connected tools, records an observation, binds chosen items into memory', async () => {
    const owner = await h.member()
    const viewer = await joinWorkspace(h, owner.workspaceId, 'view')
    const project = (await owner.post('/v1/projects', { name: 'Checkout' })).json()
    PERMITTED.projectName = project.id
    const url = `/v1/projects/${project.id}/external-context/query`
    const response = await owner.post(url, { query: 'checkout payment' })
    expect(response.statusCode, response.body).toBe(200)
    const observation = response.json()
    expect(observation).toMatchObject({ projectId: project.id, query: 'checkout payment', connectionIds: ['con_github'] })
    expect(observation.observationId).toMatch(/^obs_/)
    expect(observation.items.map((item: { itemId: string }) => item.itemId)).toEqual(['github:acme/web#12', 'github:acme/web#15'])
    expect(observation.reason).toBeUndefined()
    expect(asked.at(-1)).toMatchObject({ workspaceId: owner.workspaceId, projectId: project.id, query: 'checkout payment' })

    expect((await viewer.post(url, { query: 'x' })).statusCode).toBe(403)
    expect((await owner.post(url, {})).statusCode).toBe(400)
    expect((await owner.post(url, { query: 'x', limit: 0 })).statusCode).toBe(400)

    const bind = `/v1/projects/${project.id}/memory/external-sources`
    expect((await owner.post(bind, { observationId: observation.observationId, itemIds: ['github:acme/web#12'] })).statusCode).toBe(400)
    expect((await owner.post(bind, { observationId: observation.observationId, itemIds: ['slack:other'], confirmSourceBound: true })).statusCode).toBe(400)
    expect((await owner.post(bind, { observationId: 'obs_nope', itemIds: ['github:acme/web#12'], confirmSourceBound: true })).statusCode).toBe(404)
    expect((await viewer.post(bind, { observationId: observation.observationId, itemIds: ['github:acme/web#12'], confirmSourceBound: true })).statusCode).toBe(403)
    // Binding twice at once binds once.
    const [first, second] = await Promise.all([1, 2].map(() => owner.post(bind, { observationId: observation.observationId, itemIds: ['github:acme/web#12'], confirmSourceBound: true })))
    expect(first!.statusCode, first!.body).toBe(200)
    expect(second!.statusCode).toBe(200)
    expect(first!.json()[0]).toMatchObject({ itemId: 'github:acme/web#12', url: 'https://github.com/acme/web/issues/12', provider: 'github' })
    expect(second!.json()[0].id).toBe(first!.json()[0].id)

    const memory = (await viewer.get(`/v1/projects/${project.id}/memory`)).json()
    expect(memory.entries).toHaveLength(1)
    expect(memory.entries[0]).toMatchObject({ kind: 'reference', status: 'current', sources: [{ kind: 'external-item', id: 'github:acme/web#12', url: 'https://github.com/acme/web/issues/12' }] })

    const answer = (await viewer.post('/v1/search/answer', { query: 'Why does checkout time out on Safari?' })).json()
    expect(answer.status).toBe('answered')
    expect(answer.sources).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'external-item', id: 'github:acme/web#12', url: 'https://github.com/acme/web/issues/12' })]))
  })

  it('answers no items, and says why, without a permitted connection; 404 across workspaces', async () => {
    const owner = await h.member()
    const project = (await owner.post('/v1/projects', { name: 'Unconnected' })).json()
    const none = (await owner.post(`/v1/projects/${project.id}/external-context/query`, { query: 'anything' })).json()
    expect(none).toMatchObject({ items: [], connectionIds: [], reason: 'no-permitted-connection' })
    const stranger = await h.member()
    expect((await stranger.post(`/v1/projects/${project.id}/external-context/query`, { query: 'anything' })).statusCode).toBe(404)
    expect((await stranger.post(`/v1/projects/${project.id}/memory/external-sources`, { observationId: none.observationId, itemIds: ['a'], confirmSourceBound: true })).statusCode).toBe(404)
    expect((await h.anonymous.post(`/v1/projects/${project.id}/external-context/query`, { query: 'anything' })).statusCode).toBe(401)
    h.app.deps.ports.externalContext = undefined
    expect((await owner.post(`/v1/projects/${project.id}/external-context/query`, { query: 'anything' })).json()).toMatchObject({ items: [], reason: 'no-connector' })
    h.app.deps.ports.externalContext = fakeConnector
  })

  it('registers a git repository, indexes documents and symbols, answers citing file and line, re-indexes on request', async () => {
    const owner = await h.member()
    const viewer = await joinWorkspace(h, owner.workspaceId, 'view')
    const project = (await owner.post('/v1/projects', { name: 'Shop' })).json()
    const { repository, git } = makeRepository()
    const url = `/v1/projects/${project.id}/memory/codebase`
    expect((await viewer.post(url, { source: repository })).statusCode).toBe(403)
    expect((await owner.post(url, { source: 'https://github.com/acme/web.git' })).statusCode).toBe(400)
    expect((await owner.post(url, { source: '/etc' })).json().code).toBe('codebase_not_allowed')
    const notGit = mkdtempSync(path.join(root, 'plain-'))
    mkdirSync(notGit, { recursive: true })
    const failed = await owner.post(url, { source: notGit })
    expect(failed.statusCode).toBe(422)
    expect(failed.json().code).toBe('codebase_unavailable')

    const registered = await owner.post(url, { source: `file://${repository}` })
    expect(registered.statusCode, registered.body).toBe(200)
    expect(registered.json()).toMatchObject({ state: 'ready', fileCount: 2, symbolCount: 4, commitSha: expect.stringMatching(/^[0-9a-f]{40}$/) })

    const answer = (await viewer.post('/v1/search/answer', { query: 'How does retryPayment retry a failed card payment?' })).json()
    expect(answer.status).toBe('answered')
    expect(answer.sources).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'file', path: 'src/checkout.ts', line: 4 })]))

    writeFileSync(path.join(repository, 'src', 'refunds.ts'), 'export function refundOrder(orderId: string) {\n  return orderId\n}\n')
    git('add', '.')
    git('-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-qm', 'refunds')
    const same = (await owner.post(url, { source: `file://${repository}` })).json()
    expect(same.symbolCount).toBe(4)
    const again = (await owner.post(url, { source: `file://${repository}`, reindex: true })).json()
    expect(again).toMatchObject({ id: registered.json().id, state: 'ready', fileCount: 3, symbolCount: 5 })
    const memory = (await owner.get(`/v1/projects/${project.id}/memory`)).json()
    expect(memory.codebases).toEqual([expect.objectContaining({ source: notGit, state: 'failed', errorCode: 'codebase_unavailable' }), expect.objectContaining({ id: again.id, state: 'ready' })])
    expect(memory.entries.find((entry: { kind: string }) => entry.kind === 'code').sources[0]).toMatchObject({ kind: 'file', path: 'README.md', line: 1 })

    // While one request indexes it, another is refused rather than indexing twice.
    await h.database.db.updateTable('memory_codebases').set({ state: 'indexing' }).where('id', '=', again.id).execute()
    const busy = await owner.post(url, { source: `file://${repository}`, reindex: true })
    expect(busy.statusCode).toBe(409)
    expect(busy.json()).toMatchObject({ code: 'codebase_indexing', codebase: { id: again.id, state: 'indexing' } })
    const stranger = await h.member()
    expect((await stranger.post(url, { source: `file://${repository}` })).statusCode).toBe(404)
    expect((await h.anonymous.post(url, { source: `file://${repository}` })).statusCode).toBe(401)
  })
}, {
  env: { CODEBASE_ROOTS: root },
  setup: (app) => { app.deps.ports.externalContext = fakeConnector },
})
