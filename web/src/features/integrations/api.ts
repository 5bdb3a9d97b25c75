// Integration calls: connections (a credential, or OAuth where the server has an app), a project's
// access, and on a work object the recommended actions → prepare → approve → execute → execution.
import { api, idempotencyKey, invalidate, useResource } from '../../lib/api.ts'
import { translate, type MessageKey } from '../../lib/i18n.ts'
import type {
  AccessInput, ActionRecommendation, ApprovalResult, CredentialConnectionInput, ExecuteResult, Execution, ExternalToolList,
  IntegrationAccess, IntegrationConnection, OAuthConnectionInput, OAuthConnectionResult, PreparedAction, PrepareRecommendationInput,
  Project, RecommendationList, RefreshInput,
} from '../../lib/types.ts'

export const TOOLS = '/v1/agent/external-tools'
export const CONNECTIONS = '/v1/integrations/connections'
export const connectionsPath = (projectId: string) => `${CONNECTIONS}?projectId=${encodeURIComponent(projectId)}`
/** A project's connections (revoked ones left out), newest first; no secrets. */
export const useConnections = (projectId: string) => useResource<IntegrationConnection[]>(projectId ? connectionsPath(projectId) : null)
export const useExternalTools = () => useResource<ExternalToolList>(TOOLS)
export const useProjects = () => useResource<Project[]>('/v1/projects?status=active')
export const executionPath = (id: string) => `/v1/executions/${encodeURIComponent(id)}`
export const useExecution = (id: string | undefined) => useResource<Execution>(id ? executionPath(id) : null)

/**
 * `pattern`: what the connector's schema requires of the field, as an HTML pattern (the browser says so before the
 * server would answer with its validator's sentence); `hint`: the sentence under the field saying what to type;
 * `maxLength`: the connector's limit on a credential (the form says so in the reader's language instead of the
 * server's validator sentence; it is not the HTML attribute, which would silently cut a pasted token short).
 */
type Field = {
  name: string; label: 'field.apiKey' | 'field.signingSecret' | 'field.username' | 'field.password' | 'field.url' | 'field.serverUrl' | 'field.repository' | 'field.teamId' | 'field.channel'
  secret?: boolean; optional?: boolean; type?: 'url'; pattern?: string; maxLength?: number; hint?: 'hint.url' | 'hint.repository' | 'hint.teamId' | 'hint.channel'
}
// HTML patterns are compiled with the `v` flag: `-` and `/` inside a class are escaped.
const WEB_ADDRESS = 'https?:\\/\\/.+'
export type CatalogEntry = {
  service: CredentialConnectionInput['service']; actionIds: CredentialConnectionInput['actionIds']
  authTypes: (CredentialConnectionInput['authType'] | 'oauth')[]; credential: Field[]; settings: Field[]
}

/**
 * What the server's connectors accept (src/modules/integrations/connectors): the API offers no
 * catalog route, so the form's choices are listed here; the server validates every field again.
 */
export const CATALOG: CatalogEntry[] = [
  { service: 'email', actionIds: ['email.send'], authTypes: ['no_auth'], credential: [], settings: [] },
  { service: 'webhook', actionIds: ['webhook.send'], authTypes: ['custom_credential'], credential: [{ name: 'signingSecret', label: 'field.signingSecret', secret: true }], settings: [{ name: 'url', label: 'field.url', type: 'url', pattern: WEB_ADDRESS, hint: 'hint.url' }] },
  { service: 'github', actionIds: ['github.create_issue'], authTypes: ['api_key', 'oauth'], credential: [{ name: 'apiKey', label: 'field.apiKey', secret: true, maxLength: 500 }], settings: [{ name: 'repository', label: 'field.repository', optional: true, pattern: '[A-Za-z0-9\\-]+\\/[A-Za-z0-9_.\\-]+', hint: 'hint.repository' }] },
  { service: 'linear', actionIds: ['linear.create_issue'], authTypes: ['api_key', 'oauth'], credential: [{ name: 'apiKey', label: 'field.apiKey', secret: true, maxLength: 200 }], settings: [{ name: 'teamId', label: 'field.teamId', optional: true, pattern: '[0-9a-fA-F\\-]{36}', hint: 'hint.teamId' }] },
  { service: 'slack', actionIds: ['slack.post_message'], authTypes: ['api_key', 'oauth'], credential: [{ name: 'apiKey', label: 'field.apiKey', secret: true, maxLength: 500 }], settings: [{ name: 'channel', label: 'field.channel', optional: true, pattern: '[CGD][A-Z0-9]{2,20}', hint: 'hint.channel' }] },
  { service: 'caldav', actionIds: ['caldav.create_event'], authTypes: ['custom_credential'], credential: [{ name: 'username', label: 'field.username', maxLength: 200 }, { name: 'password', label: 'field.password', secret: true, maxLength: 500 }], settings: [{ name: 'serverUrl', label: 'field.serverUrl', type: 'url', pattern: WEB_ADDRESS, hint: 'hint.url' }] },
]

const SERVICE_NAMES: Record<string, MessageKey> = {
  email: 'integrations.name.email', webhook: 'integrations.name.webhook', github: 'integrations.name.github',
  linear: 'integrations.name.linear', slack: 'integrations.name.slack', caldav: 'integrations.name.caldav',
}
const ACTION_NAMES: Record<string, MessageKey> = {
  'email.send': 'integrations.name.email.send', 'webhook.send': 'integrations.name.webhook.send',
  'github.create_issue': 'integrations.name.github.create_issue', 'linear.create_issue': 'integrations.name.linear.create_issue',
  'slack.post_message': 'integrations.name.slack.post_message', 'caldav.create_event': 'integrations.name.caldav.create_event',
}
/** A tool as people call it ("GitHub"), in the reader's language; an unknown one by its id. */
export const serviceName = (service: string) => (SERVICE_NAMES[service] ? translate(SERVICE_NAMES[service]) : service)
/** An action as a short phrase with its id after it ("Send an email (email.send)"); an unknown one by its id. */
/**
 * Where a connection sends, from its non-secret settings (the webhook's address, the repository,
 * the channel…): what tells two connections of one tool apart. Undefined when nothing was set.
 */
type Named = Pick<IntegrationConnection, 'service' | 'settings' | 'connectionAlias'>

export function connectionTarget(connection: Named): string | undefined {
  const entry = CATALOG.find((item) => item.service === connection.service)
  const settings = (connection.settings ?? {}) as Record<string, unknown>
  for (const field of entry?.settings ?? []) {
    const value = settings[field.name]
    if (typeof value !== 'string' || !value) continue
    if (field.type !== 'url') return value
    try {
      const url = new URL(value)
      return `${url.host}${url.pathname === '/' ? '' : url.pathname}`
    } catch {
      return value
    }
  }
  return undefined
}

/** A connection as a person names it: the tool and where it sends, else the tool and its alias (never its id). */
export const connectionName = (connection: Named) =>
  `${serviceName(connection.service)} · ${connectionTarget(connection) ?? connection.connectionAlias}`

// The parentheses are the reader's language's ("发送邮件（email.send）" in Chinese).
export const actionName = (actionId: string) => (ACTION_NAMES[actionId] ? `${translate(ACTION_NAMES[actionId])}${translate('common.inParentheses', { text: actionId })}` : actionId)

export const integrations = {
  connectWithCredential: async (input: CredentialConnectionInput) => {
    const connection = await api.post<IntegrationConnection>('/v1/integrations/connections/credential', input, { 'idempotency-key': idempotencyKey() })
    invalidate(TOOLS, CONNECTIONS)
    return connection
  },
  /** Deletes the stored credential; actions prepared through it can no longer run. */
  revoke: async (connection: IntegrationConnection) => {
    const revoked = await api.delete<IntegrationConnection>(`${CONNECTIONS}/${encodeURIComponent(connection.id)}`)
    invalidate(TOOLS, CONNECTIONS)
    return revoked
  },
  startOAuth: async (input: OAuthConnectionInput) => {
    const started = await api.post<OAuthConnectionResult>('/v1/integrations/connections/oauth', input, { 'idempotency-key': idempotencyKey() })
    invalidate(CONNECTIONS)
    return started
  },
  setAccess: async (input: AccessInput) => {
    const access = await api.put<IntegrationAccess>('/v1/integrations/access', input)
    invalidate(TOOLS)
    return access
  },
  refreshRecommendations: (workObjectId: string, input: RefreshInput = {}) =>
    api.post<RecommendationList>(`/v1/work-objects/${encodeURIComponent(workObjectId)}/action-recommendations/refresh`, input),
  prepare: (recommendation: ActionRecommendation, input: PrepareRecommendationInput = {}) =>
    api.post<PreparedAction>(`/v1/action-recommendations/${encodeURIComponent(recommendation.id)}/prepare`, input, { 'idempotency-key': idempotencyKey() }),
  approve: (action: PreparedAction) => api.post<ApprovalResult>(`/v1/actions/${encodeURIComponent(action.id)}/approve`, { expectedPayloadHash: action.payloadHash }),
  execute: (action: PreparedAction, approvalToken: string) =>
    api.post<ExecuteResult>(`/v1/actions/${encodeURIComponent(action.id)}/execute`, { approvalToken, expectedPayloadHash: action.payloadHash }, { 'idempotency-key': idempotencyKey() }),
}
