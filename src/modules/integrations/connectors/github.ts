// GitHub Issues through @octokit/rest: create an issue; choices of repositories, labels and
// assignees; issue search for external context. An issue create is not idempotent and GitHub has
// no idempotency key, so the frozen body carries a marker with the action's id: a run that may
// have reached GitHub looks for it before creating again (reconcile).
import { Type } from 'typebox'
import type { ExternalItem } from '../../../platform/ports.ts'
import { providerError, ProviderError, type ConnectionContext, type Connector } from './types.ts'

const Name = Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9_.-]+$' })

const CreateIssueInput = Type.Object({
  owner: Type.String({ minLength: 1, maxLength: 39, pattern: '^[A-Za-z0-9-]+$', description: 'Repository owner (user or organisation).' }),
  repo: Name,
  title: Type.String({ minLength: 1, maxLength: 256 }),
  body: Type.Optional(Type.String({ maxLength: 60_000 })),
  labels: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 50 }), { maxItems: 20 })),
  assignees: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 39 }), { maxItems: 10 })),
}, { additionalProperties: false })

const markerOf = (actionRowId: string) => `<!-- confer-action: ${actionRowId} -->`

// The SDK loads on first use: a server that never calls GitHub does not pay for it at start.
async function client(context: ConnectionContext) {
  const { Octokit } = await import('@octokit/rest')
  const octokit = new Octokit({
    auth: context.credential.accessToken ?? context.credential.apiKey,
    baseUrl: context.config.integrations.githubApiUrl,
    userAgent: 'confer-integrations',
    request: { signal: context.signal, retries: 0 },
    log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
  })
  // GitHub answers application/json as well; its published description lists only that, and a
  // validating mock refuses the SDK's default vnd.github.v3+json with 406.
  octokit.hook.before('request', (options) => {
    options.headers.accept = 'application/json'
  })
  return octokit
}

async function call<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    if (error instanceof ProviderError) throw error
    const failure = error as { status?: number; message?: string; response?: { headers?: Record<string, string> } }
    throw providerError(failure.status, `GitHub: ${failure.status ?? 'network'} ${(failure.message ?? '').slice(0, 200)}`, failure.response?.headers?.['retry-after'])
  }
}

const PAGE = 100

function pageOf(options: { value: string; label: string }[], query: string, page: number, full: boolean) {
  const needle = query.trim().toLowerCase()
  const filtered = needle ? options.filter((option) => option.label.toLowerCase().includes(needle) || option.value.toLowerCase().includes(needle)) : options
  return { options: filtered, ...(full ? { nextCursor: String(page + 1) } : {}) }
}

export const githubConnector: Connector = {
  service: 'github',
  title: 'GitHub Issues',
  authTypes: ['api_key', 'oauth'],
  credential: Type.Object({ apiKey: Type.String({ minLength: 1, maxLength: 500, description: 'A personal access token (fine-grained: Issues read and write).' }) }, { additionalProperties: false }),
  settings: Type.Object({
    repository: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9-]+/[A-Za-z0-9_.-]+$', description: 'Default `owner/repo` for recommendations and search.' })),
  }, { additionalProperties: false }),
  actions: [{
    id: 'github.create_issue',
    version: 1,
    title: 'Create a GitHub issue',
    description: 'Opens an issue in a repository, with optional labels and assignees.',
    input: CreateIssueInput,
    optionFields: ['repository', 'labels', 'assignees'],
    retry: 'reconcile',
  }],

  async verify(context) {
    const octokit = await client(context)
    await call(() => octokit.rest.users.getAuthenticated())
  },

  async fieldOptions(context, _actionId, field, { query, cursor }) {
    const octokit = await client(context)
    const page = cursor ? Math.max(1, Number(cursor) || 1) : 1
    const owner = String(field.values.owner ?? '')
    const repo = String(field.values.repo ?? '')
    if (field.name === 'repository') {
      const { data } = await call(() => octokit.rest.repos.listForAuthenticatedUser({ per_page: PAGE, page, sort: 'updated' }))
      return pageOf(data.map((item) => ({ value: item.full_name, label: item.full_name })), query, page, data.length === PAGE)
    }
    if (!owner || !repo) throw new ProviderError(`${field.name} needs owner and repo in field.values`, { retryable: false, status: 400 })
    if (field.name === 'labels') {
      const { data } = await call(() => octokit.rest.issues.listLabelsForRepo({ owner, repo, per_page: PAGE, page }))
      return pageOf(data.map((item) => ({ value: item.name, label: item.name })), query, page, data.length === PAGE)
    }
    const { data } = await call(() => octokit.rest.issues.listAssignees({ owner, repo, per_page: PAGE, page }))
    return pageOf(data.map((item) => ({ value: item.login, label: item.login })), query, page, data.length === PAGE)
  },

  freeze(_actionId, input, actionRowId) {
    const body = typeof input.body === 'string' && input.body !== '' ? `${input.body}\n\n${markerOf(actionRowId)}` : markerOf(actionRowId)
    return { ...input, body }
  },

  async execute(context, _actionId, payload) {
    const octokit = await client(context)
    const input = payload as { owner: string; repo: string; title: string; body?: string; labels?: string[]; assignees?: string[] }
    const { data } = await call(() => octokit.rest.issues.create({
      owner: input.owner, repo: input.repo, title: input.title,
      ...(input.body !== undefined ? { body: input.body } : {}),
      ...(input.labels ? { labels: input.labels } : {}),
      ...(input.assignees ? { assignees: input.assignees } : {}),
    }))
    return { externalId: String(data.number), url: data.html_url, summary: `Issue #${data.number} in ${input.owner}/${input.repo}`, nodeId: data.node_id }
  },

  async reconcile(context, _actionId, payload, { actionRowId }) {
    const octokit = await client(context)
    const input = payload as { owner: string; repo: string }
    const { data } = await call(() => octokit.rest.issues.listForRepo({ owner: input.owner, repo: input.repo, state: 'all', sort: 'created', direction: 'desc', per_page: 50 }))
    const made = data.find((issue) => typeof issue.body === 'string' && issue.body.includes(markerOf(actionRowId)))
    return made ? { externalId: String(made.number), url: made.html_url, summary: `Issue #${made.number} in ${input.owner}/${input.repo}`, nodeId: made.node_id } : undefined
  },

  async search(context, query, limit): Promise<ExternalItem[]> {
    const octokit = await client(context)
    const repository = typeof context.settings.repository === 'string' ? ` repo:${context.settings.repository}` : ''
    const { data } = await call(() => octokit.rest.search.issuesAndPullRequests({ q: `${query}${repository}`, per_page: Math.min(limit, 50) }))
    return data.items.slice(0, limit).map((item) => ({
      itemId: `github:${item.repository_url.split('/').slice(-2).join('/')}#${item.number}`,
      connectionId: context.connectionId, provider: 'github', kind: item.pull_request ? 'pull-request' : 'issue',
      title: item.title, snippet: (item.body ?? '').slice(0, 300), url: item.html_url, updatedAt: item.updated_at,
    }))
  },
}
