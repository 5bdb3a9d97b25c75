// TypeBox schemas of the integrations module: connections, access, recommendations, prepared
// actions, approvals, executions, field options and agent tools.
import { Type, type Static } from 'typebox'
import { ACTION_IDS, SERVICES } from './connectors/index.ts'
import { REASON_CODES } from './reasons.ts'

const Timestamp = Type.String({ format: 'date-time' })
const Id = Type.String({ minLength: 1, maxLength: 80 })
const literals = <const T extends readonly string[]>(values: T, options: Record<string, unknown> = {}) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options })
const AnyObject = (description: string) => Type.Unsafe<Record<string, unknown>>(Type.Object({}, { additionalProperties: true, description }))

export const Service = literals(SERVICES as unknown as readonly string[], { description: 'The connected tool.' })
export const CatalogActionId = literals(ACTION_IDS as unknown as readonly string[], { description: 'An action of the catalog, `<service>.<verb>`.' })
const ActionIdList = Type.Array(CatalogActionId, { minItems: 1, maxItems: 50, uniqueItems: true })
const ConnectionIdList = Type.Array(Id, { maxItems: 200, uniqueItems: true })

export const IntegrationConnection = Type.Object({
  id: Type.String(),
  projectId: Type.String(),
  service: Type.String(),
  authType: literals(['api_key', 'custom_credential', 'no_auth', 'oauth'] as const),
  status: literals(['pending', 'active', 'error', 'revoked'] as const, { description: '`pending` until an OAuth callback stored tokens.' }),
  connectionAlias: Type.String(),
  actionIds: Type.Array(Type.String()),
  settings: AnyObject('Non-secret settings (a default repository, a webhook URL). Credentials and tokens are never returned.'),
  hasCredential: Type.Boolean(),
  tokenExpiresAt: Type.Optional(Timestamp),
  lastError: Type.Optional(Type.String()),
  createdById: Type.String(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
}, { $id: 'IntegrationConnection' })

export const CredentialConnectionBody = Type.Object({
  projectId: Id,
  service: Service,
  authType: literals(['api_key', 'custom_credential', 'no_auth'] as const),
  credential: AnyObject('The credential, as the service asks (github api_key: {apiKey}; webhook custom_credential: {signingSecret}; no_auth: {}). Stored encrypted, never returned.'),
  actionIds: ActionIdList,
  settings: Type.Optional(AnyObject('Non-secret settings of the service.')),
})
export type CredentialConnectionInput = Static<typeof CredentialConnectionBody>

export const OAuthConnectionBody = Type.Object({
  projectId: Id,
  service: Service,
  actionIds: ActionIdList,
  settings: Type.Optional(AnyObject('Non-secret settings of the service.')),
})
export type OAuthConnectionInput = Static<typeof OAuthConnectionBody>

export const OAuthConnectionResult = Type.Object({
  authorizationURL: Type.String({ description: 'Send the person here; the provider returns to /v1/integrations/oauth/callback.' }),
  connectionAlias: Type.String(),
  expiresAt: Type.String({ format: 'date-time', description: 'The authorization must complete before this time.' }),
  connection: Type.Ref('IntegrationConnection'),
})

export const OAuthCallbackQuery = Type.Object({
  state: Type.String({ minLength: 1, maxLength: 200 }),
  code: Type.Optional(Type.String({ minLength: 1, maxLength: 2000 })),
  error: Type.Optional(Type.String({ maxLength: 200 })),
})

const Grant = Type.Object({ connectionId: Id, actionIds: Type.Array(CatalogActionId, { maxItems: 50, uniqueItems: true }) }, { additionalProperties: false })

export const AccessBody = Type.Object({
  projectId: Id,
  connectionIds: ConnectionIdList,
  actionIds: Type.Array(CatalogActionId, { maxItems: 50, uniqueItems: true }),
  grants: Type.Optional(Type.Array(Grant, { maxItems: 200, description: 'Narrows, per connection, which of `actionIds` it may run.' })),
  expectedUpdatedAt: Type.Optional(Type.Union([Timestamp, Type.Null()], { description: 'Concurrency guard: the access\'s updatedAt as last read (null: none existed yet).' })),
})
export type AccessInput = Static<typeof AccessBody>

export const IntegrationAccess = Type.Object({
  projectId: Type.String(),
  connectionIds: Type.Array(Type.String()),
  actionIds: Type.Array(Type.String()),
  grants: Type.Array(Type.Object({ connectionId: Type.String(), actionIds: Type.Array(Type.String()) })),
  updatedById: Type.String(),
  updatedAt: Timestamp,
}, { $id: 'IntegrationAccess' })

export const ActionRecommendation = Type.Object({
  id: Type.String(),
  workSetId: Type.String(),
  workObjectId: Type.String(),
  workObjectRevisionHash: Type.String({ description: 'The revision it was drafted from.' }),
  projectId: Type.Optional(Type.String()),
  connectionId: Type.Optional(Type.String()),
  actionId: Type.String(),
  title: Type.String(),
  input: AnyObject('The drafted input; nothing has left Confer.'),
  sourceSegmentIds: Type.Array(Type.String()),
  reason: Type.String({ description: 'Why it is recommended, in English.' }),
  reasonCode: Type.Optional(literals(REASON_CODES, { description: 'The reason as a stable code, for a client to say it in its reader\'s language (a dated follow-up\'s date is its work object\'s dueDate).' })),
  state: literals(['open', 'prepared', 'dismissed', 'stale'] as const),
  createdAt: Timestamp,
  updatedAt: Timestamp,
}, { $id: 'ActionRecommendation' })

export const RecommendationList = Type.Object({
  recommendations: Type.Array(Type.Ref('ActionRecommendation')),
  drafted: Type.Integer({ description: 'How many were new.' }),
  updated: Type.Integer({ description: 'How many changed.' }),
})

export const RefreshBody = Type.Object({
  expectedRevisionHash: Type.Optional(Type.String({ maxLength: 100, description: 'Work object refresh: the revision the caller read (409 when it moved on).' })),
})

export const ExternalActionReceipt = Type.Object({
  executionId: Type.String(),
  state: literals(['queued', 'running', 'succeeded', 'failed'] as const),
  externalId: Type.Optional(Type.String({ description: 'The created item\'s id at the provider (e.g. the issue number).' })),
  url: Type.Optional(Type.String()),
  summary: Type.Optional(Type.String()),
  error: Type.Optional(Type.String()),
  completedAt: Type.Optional(Timestamp),
}, { $id: 'ExternalActionReceipt' })

export const PreparedExternalAction = Type.Object({
  id: Type.String(),
  projectId: Type.String(),
  connectionId: Type.String(),
  actionId: Type.String({ description: 'The catalog action.' }),
  actionVersion: Type.Integer(),
  recommendationId: Type.Optional(Type.String()),
  workSetId: Type.Optional(Type.String()),
  workObjectId: Type.Optional(Type.String()),
  payload: AnyObject('Exactly what will be sent, frozen at prepare.'),
  payloadHash: Type.String({ description: 'SHA-256 (hex) of the canonical payload; approvals are bound to it.' }),
  state: literals(['recommended', 'prepared', 'approved', 'executing', 'succeeded', 'failed', 'superseded'] as const),
  preparedById: Type.String(),
  approvedById: Type.Optional(Type.String()),
  approvedAt: Type.Optional(Timestamp),
  approvalExpiresAt: Type.Optional(Timestamp),
  receipt: Type.Optional(Type.Ref('ExternalActionReceipt')),
  createdAt: Timestamp,
  updatedAt: Timestamp,
}, { $id: 'PreparedExternalAction' })

export const PrepareBody = Type.Object({
  projectId: Id,
  actionId: CatalogActionId,
  connectionId: Id,
  input: AnyObject('The action\'s input, per its JSON Schema (GET /v1/agent/external-tools).'),
})
export type PrepareInput = Static<typeof PrepareBody>

export const PrepareRecommendationBody = Type.Object({
  connectionId: Type.Optional(Id),
  input: Type.Optional(AnyObject('Changes to the drafted input (merged over it) before it is frozen.')),
})

export const ApproveBody = Type.Object({
  expectedPayloadHash: Type.String({ minLength: 1, maxLength: 64, description: 'The payloadHash the approver saw: a different one is refused (409).' }),
})

export const ApprovalResult = Type.Object({
  action: Type.Ref('PreparedExternalAction'),
  approvalToken: Type.String({ description: 'Single use, short-lived; bound to the payload hash, connection and action version.' }),
  approvalExpiresAt: Timestamp,
})

export const ExecuteBody = Type.Object({
  approvalToken: Type.String({ minLength: 1, maxLength: 200 }),
  expectedPayloadHash: Type.Optional(Type.String({ maxLength: 64 })),
}, { title: 'ExecuteExternalActionRequest' })

export const ExecuteResult = Type.Object({
  action: Type.Ref('PreparedExternalAction'),
  receipt: Type.Ref('ExternalActionReceipt'),
})

export const ExecutionV2 = Type.Object({
  id: Type.String(),
  preparedActionId: Type.String(),
  actionId: Type.String(),
  connectionId: Type.String(),
  workSetId: Type.Optional(Type.String()),
  workObjectId: Type.Optional(Type.String()),
  state: literals(['queued', 'running', 'succeeded', 'failed'] as const),
  attempts: Type.Integer(),
  receipt: Type.Optional(Type.Ref('ExternalActionReceipt')),
  error: Type.Optional(Type.String()),
  history: Type.Array(Type.Object({ state: Type.String(), detail: Type.Optional(Type.String()), at: Timestamp }), { description: 'Append-only.' }),
  createdById: Type.String(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  finishedAt: Type.Optional(Timestamp),
}, { $id: 'ExecutionV2' })

export const FieldOptionsBody = Type.Object({
  projectId: Id,
  connectionId: Id,
  actionId: CatalogActionId,
  field: Type.Object({
    name: Type.String({ minLength: 1, maxLength: 100 }),
    values: Type.Optional(AnyObject('Values of the fields this one depends on (owner, repo).')),
  }),
  query: Type.Optional(Type.String({ maxLength: 200 })),
  cursor: Type.Optional(Type.String({ maxLength: 100 })),
})
export type FieldOptionsInput = Static<typeof FieldOptionsBody>

export const FieldOptionsResult = Type.Object({
  field: Type.String(),
  options: Type.Array(Type.Object({ value: Type.String(), label: Type.String() }, { title: 'IntegrationActionFieldOption' })),
  sourceActionId: Type.String(),
  nextCursor: Type.Optional(Type.String()),
})

export const ExternalTool = Type.Object({
  name: Type.String({ description: 'Stable per (action, connection).' }),
  title: Type.String(),
  description: Type.String(),
  actionId: Type.String(),
  actionVersion: Type.Integer(),
  connectionId: Type.String(),
  projectIds: Type.Array(Type.String()),
  inputSchema: AnyObject('JSON Schema of the tool\'s input.'),
})

export const ExternalToolList = Type.Object({ tools: Type.Array(ExternalTool) })

export const ToolCallBody = Type.Object({
  input: AnyObject('The tool\'s input, per its inputSchema.'),
  projectId: Type.Optional(Id),
})

export const ToolParams = Type.Object({ toolName: Type.String({ minLength: 1, maxLength: 100 }) })
export const RecommendationParams = Type.Object({ recommendationId: Id })
export const ActionParams = Type.Object({ actionId: Id })
export const ExecutionParams = Type.Object({ executionId: Id })
export const WorkObjectParams = Type.Object({ workObjectId: Id })
export const WorkSetParams = Type.Object({ workSetId: Id })
export const ConnectionParams = Type.Object({ connectionId: Id })
export const ConnectionListQuery = Type.Object({
  projectId: Type.Optional(Type.String({ minLength: 1, maxLength: 80, description: 'Only this project\'s connections; without it, every connection of the workspace.' })),
  includeRevoked: Type.Optional(Type.Boolean({ default: false, description: 'Revoked connections are left out unless true.' })),
}, { additionalProperties: false })

export const integrationSchemas = [IntegrationConnection, IntegrationAccess, ActionRecommendation, ExternalActionReceipt, PreparedExternalAction, ExecutionV2]
