// Row types of the tables owned by the integrations module (connections, their secrets, project
// access, recommendations, prepared actions, executions). Only that owner queries them.

export type ConnectionAuthType = 'api_key' | 'custom_credential' | 'no_auth' | 'oauth'
export type ConnectionStatus = 'pending' | 'active' | 'error' | 'revoked'

export type IntegrationConnectionTable = {
  id: string
  workspace_id: string
  project_id: string
  service: string
  auth_type: ConnectionAuthType
  status: ConnectionStatus
  /** a readable, unique-per-workspace name (`github-1`), the interface's connectionAlias */
  alias: string
  /** JSON text: the catalog action ids this connection was made for */
  action_ids: string
  /** JSON text: non-secret settings (e.g. a webhook's URL, a repository default) */
  settings: string
  /** AES-256-GCM ciphertext of the JSON credential (api key, tokens), base64; null for no_auth */
  secret_ciphertext: string | null
  /** per-row 96-bit nonce, base64 */
  secret_nonce: string | null
  /** version of the key that encrypted the row (rotation re-encrypts to the newest) */
  secret_key_version: number | null
  /** OAuth: when the access token expires */
  token_expires_at: string | null
  /** OAuth: one refresher at a time across nodes (lease) */
  refresh_locked_until: string | null
  last_error: string | null
  created_by: string
  created_at: string
  updated_at: string
}

export type IntegrationOAuthStateTable = {
  /** SHA-256 of the `state` parameter */
  state_hash: string
  connection_id: string
  workspace_id: string
  /** the PKCE code verifier, encrypted like a credential */
  verifier_ciphertext: string
  verifier_nonce: string
  key_version: number
  redirect_uri: string
  expires_at: string
  used_at: string | null
  created_at: string
}

export type IntegrationAccessTable = {
  project_id: string
  workspace_id: string
  /** JSON text: connection ids the project may use */
  connection_ids: string
  /** JSON text: catalog action ids the project may use */
  action_ids: string
  /** JSON text: optional narrowing per connection [{connectionId, actionIds}] */
  grants: string
  updated_by: string
  updated_at: string
}

export type ActionRecommendationTable = {
  id: string
  workspace_id: string
  work_set_id: string
  work_object_id: string
  /** the work object's revision hash the recommendation was drafted from */
  work_object_revision_hash: string
  project_id: string | null
  connection_id: string | null
  action_id: string
  title: string
  /** JSON text: the drafted input (nothing has left Confer) */
  input: string
  /** JSON text: segment ids cited */
  source_segment_ids: string
  reason: string
  state: 'open' | 'prepared' | 'dismissed' | 'stale'
  created_at: string
  updated_at: string
}

export type ExternalActionState = 'prepared' | 'approved' | 'executing' | 'succeeded' | 'failed' | 'superseded'

export type ExternalActionTable = {
  id: string
  workspace_id: string
  project_id: string
  connection_id: string
  /** catalog action id, e.g. github.create_issue */
  action_id: string
  action_version: number
  recommendation_id: string | null
  work_set_id: string | null
  work_object_id: string | null
  /** JSON text, canonical: exactly what will be sent */
  payload: string
  /** SHA-256 (hex) of the canonical payload */
  payload_hash: string
  state: ExternalActionState
  prepared_by: string
  approved_by: string | null
  approved_at: string | null
  /** SHA-256 of the approval token; the token itself is never stored */
  approval_token_hash: string | null
  approval_expires_at: string | null
  approval_used_at: string | null
  created_at: string
  updated_at: string
}

export type ExecutionState = 'queued' | 'running' | 'succeeded' | 'failed'

export type ExternalExecutionTable = {
  id: string
  workspace_id: string
  action_row_id: string
  state: ExecutionState
  attempts: number
  /** set before the provider call of an attempt, cleared by its outcome: a restart reconciles */
  call_started_at: string | null
  /** JSON text: the receipt (external id, URL) once succeeded */
  receipt: string | null
  error: string | null
  created_by: string
  created_at: string
  updated_at: string
  finished_at: string | null
}

/** Append-only history of an execution: one row per state reached. */
export type ExternalExecutionEventTable = {
  id: string
  execution_id: string
  state: string
  detail: string | null
  at: string
}

export type IntegrationsTables = {
  integration_connections: IntegrationConnectionTable
  integration_oauth_states: IntegrationOAuthStateTable
  integration_access: IntegrationAccessTable
  action_recommendations: ActionRecommendationTable
  external_actions: ExternalActionTable
  external_executions: ExternalExecutionTable
  external_execution_events: ExternalExecutionEventTable
}
