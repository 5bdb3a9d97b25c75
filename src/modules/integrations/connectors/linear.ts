// Linear through @linear/sdk (pinned 88.3.0): create an issue; teams, projects and workflow states
// as field options (Relay cursor paging); issue search for external context. The SDK's generated
// queries select every field of a type, so the connector sends its own minimal GraphQL documents
// through the SDK's client (`client.rawRequest`: its authentication, API URL and error parsing),
// selecting only what Confer reads. The tests validate them against a hand-written description of
// exactly these operations (test/providers/linear-schema.ts): a field or argument added here must
// be added there after checking Linear's API reference. Linear accepts a client-chosen issue id,
// derived here from the action's id, so a run that may have created the issue finds it by that id
// before creating again.
import { createHash } from 'node:crypto'
import { Type } from 'typebox'
import type { ExternalItem } from '../../../platform/ports.ts'
import { providerError, ProviderError, type ConnectionContext, type Connector } from './types.ts'

const Uuid = Type.String({ pattern: '^[0-9a-fA-F-]{36}$' })

/** A stable UUID (version 4 layout) from the action's id: the issue's id at Linear. */
export function issueIdFor(actionRowId: string) {
  const hex = createHash('sha256').update(`confer:${actionRowId}`).digest('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`
}

// The SDK loads on first use: a server that never calls Linear does not pay for it at start.
async function client(context: ConnectionContext) {
  const { LinearClient } = await import('@linear/sdk')
  const credential = context.credential.accessToken ? { accessToken: context.credential.accessToken } : { apiKey: context.credential.apiKey }
  return new LinearClient({ ...credential, apiUrl: context.config.integrations.linearApiUrl, signal: context.signal ?? null })
}

async function call<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    if (error instanceof ProviderError) throw error
    const failure = error as { status?: number; type?: string; message?: string; errors?: { type?: string }[] }
    // The SDK names any 4xx without a GraphQL error type an AuthenticationError; only Linear's own
    // "authentication error" (or a 401) is a refused credential.
    const refused = failure.status === 401 || (failure.errors ?? []).some((item) => item.type === 'AuthenticationError')
    const status = refused ? 401 : failure.status ?? (failure.type === 'Ratelimited' ? 429 : failure.type === 'AuthenticationError' ? 401 : failure.type === 'NetworkError' ? undefined : 400)
    throw providerError(status, `Linear: ${(failure.message ?? '').slice(0, 200)}`)
  }
}

type Named = { id: string; name: string }
type Page<T> = { nodes: T[]; pageInfo: { hasNextPage: boolean; endCursor?: string | null } }
type IssueFields = { id: string; identifier: string; title: string; url: string; description?: string | null; updatedAt: string }

const TEAMS = `query ConferTeams($first: Int, $after: String) {
  teams(first: $first, after: $after) { nodes { id name } pageInfo { hasNextPage endCursor } }
}`
const PROJECTS = `query ConferProjects($first: Int, $after: String) {
  projects(first: $first, after: $after) { nodes { id name } pageInfo { hasNextPage endCursor } }
}`
const WORKFLOW_STATES = `query ConferWorkflowStates($first: Int, $after: String, $filter: WorkflowStateFilter) {
  workflowStates(first: $first, after: $after, filter: $filter) { nodes { id name } pageInfo { hasNextPage endCursor } }
}`
const ISSUE_CREATE = `mutation ConferIssueCreate($input: IssueCreateInput!) {
  issueCreate(input: $input) { success issue { identifier url } }
}`
const ISSUE = `query ConferIssue($id: String!) {
  issue(id: $id) { id identifier url }
}`
const VIEWER = `query ConferViewer {
  viewer { id }
}`
const SEARCH_ISSUES = `query ConferSearchIssues($term: String!, $first: Int) {
  searchIssues(term: $term, first: $first) { nodes { identifier title url description updatedAt } }
}`

/** One GraphQL document through the SDK's client; its errors are the SDK's (LinearError: type, status). */
async function request<T>(context: ConnectionContext, query: string, variables: Record<string, unknown>): Promise<T> {
  const linear = await client(context)
  return (await linear.client.rawRequest<T, Record<string, unknown>>(query, variables)).data as T
}

const page = (nodes: Named[], query: string, pageInfo: { hasNextPage: boolean; endCursor?: string | null | undefined }) => {
  const needle = query.trim().toLowerCase()
  return {
    options: nodes.map((node) => ({ value: node.id, label: node.name })).filter((option) => !needle || option.label.toLowerCase().includes(needle)),
    ...(pageInfo.hasNextPage && pageInfo.endCursor ? { nextCursor: pageInfo.endCursor } : {}),
  }
}

export const linearConnector: Connector = {
  service: 'linear',
  title: 'Linear',
  authTypes: ['api_key', 'oauth'],
  credential: Type.Object({ apiKey: Type.String({ pattern: '^lin_api_', maxLength: 200, description: 'A personal API key (lin_api_…).' }) }, { additionalProperties: false }),
  settings: Type.Object({ teamId: Type.Optional(Uuid) }, { additionalProperties: false }),
  actions: [{
    id: 'linear.create_issue',
    version: 1,
    title: 'Create a Linear issue',
    description: 'Creates an issue in a Linear team, optionally in a project and workflow state.',
    input: Type.Object({
      teamId: Uuid,
      title: Type.String({ minLength: 1, maxLength: 255 }),
      description: Type.Optional(Type.String({ maxLength: 60_000 })),
      projectId: Type.Optional(Uuid),
      stateId: Type.Optional(Uuid),
      priority: Type.Optional(Type.Integer({ minimum: 0, maximum: 4 })),
      dueDate: Type.Optional(Type.String({ format: 'date' })),
    }, { additionalProperties: false }),
    optionFields: ['teamId', 'projectId', 'stateId'],
    retry: 'reconcile',
  }],

  async verify(context) {
    await call(() => request<{ viewer: { id: string } }>(context, VIEWER, {}))
  },

  async fieldOptions(context, _actionId, field, { query, cursor }) {
    const variables = { first: 50, ...(cursor ? { after: cursor } : {}) }
    if (field.name === 'teamId') {
      const { teams } = await call(() => request<{ teams: Page<Named> }>(context, TEAMS, variables))
      return page(teams.nodes, query, teams.pageInfo)
    }
    if (field.name === 'projectId') {
      const { projects } = await call(() => request<{ projects: Page<Named> }>(context, PROJECTS, variables))
      return page(projects.nodes, query, projects.pageInfo)
    }
    const teamId = String(field.values.teamId ?? '')
    if (!teamId) throw new ProviderError('stateId needs teamId in field.values', { status: 400, retryable: false })
    const { workflowStates } = await call(() => request<{ workflowStates: Page<Named> }>(context, WORKFLOW_STATES, { ...variables, filter: { team: { id: { eq: teamId } } } }))
    return page(workflowStates.nodes, query, workflowStates.pageInfo)
  },

  async execute(context, _actionId, payload, { actionRowId }) {
    const input = payload as { teamId: string; title: string; description?: string; projectId?: string; stateId?: string; priority?: number; dueDate?: string }
    const { issueCreate: created } = await call(() => request<{ issueCreate: { success: boolean; issue?: Pick<IssueFields, 'identifier' | 'url'> | null } }>(context, ISSUE_CREATE, { input: { ...input, id: issueIdFor(actionRowId) } }))
    if (!created.success) throw new ProviderError('Linear: issueCreate did not succeed', { status: 400, retryable: false })
    const issue = created.issue ?? undefined
    return { externalId: issue?.identifier ?? issueIdFor(actionRowId), url: issue?.url ?? '', summary: `Linear issue ${issue?.identifier ?? ''}`.trim(), issueId: issueIdFor(actionRowId) }
  },

  async reconcile(context, _actionId, _payload, { actionRowId }) {
    try {
      const { issue } = await request<{ issue: Pick<IssueFields, 'id' | 'identifier' | 'url'> }>(context, ISSUE, { id: issueIdFor(actionRowId) })
      return { externalId: issue.identifier, url: issue.url, summary: `Linear issue ${issue.identifier}`, issueId: issue.id }
    } catch (error) {
      const failure = error as { type?: string }
      if (failure.type === 'InvalidInput' || failure.type === 'GraphqlError' || /not found|Entity not found/i.test((error as Error).message)) return undefined
      throw providerError(undefined, `Linear: ${(error as Error).message.slice(0, 200)}`)
    }
  },

  async search(context, query, limit): Promise<ExternalItem[]> {
    const { searchIssues: found } = await call(() => request<{ searchIssues: { nodes: Omit<IssueFields, 'id'>[] } }>(context, SEARCH_ISSUES, { term: query, first: Math.min(limit, 50) }))
    return found.nodes.slice(0, limit).map((issue) => ({
      itemId: `linear:${issue.identifier}`, connectionId: context.connectionId, provider: 'linear', kind: 'issue',
      title: issue.title, snippet: (issue.description ?? '').slice(0, 300), url: issue.url, updatedAt: new Date(issue.updatedAt).toISOString(),
    }))
  },
}
