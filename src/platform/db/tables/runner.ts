// Row types of the tables owned by the runner module (local runners, their pairing grants, their
// tasks and the nonces of signed completions). Only that owner queries them.

export type LocalRunnerKind = 'runner-a' | 'runner-b'
export type RunnerTaskStatus = 'awaiting-confirmation' | 'queued' | 'leased' | 'completed' | 'cancelled'

export type RunnerGrantTable = {
  id: string
  workspace_id: string
  account_id: string
  /** SHA-256 of the one-time grant token; the token itself is shown once */
  token_hash: string
  expires_at: string
  used_at: string | null
  runner_id: string | null
  created_at: string
}

export type LocalRunnerTable = {
  id: string
  workspace_id: string
  account_id: string
  installation_id: string
  display_name: string
  /** JSON text: LocalRunnerKind[] */
  supported_runners: string
  /** JSON text: object[] as the runner declared them */
  capabilities: string
  /** Ed25519 public key, SPKI PEM */
  public_signing_key: string
  /** SHA-256 of the runner token */
  token_hash: string
  created_at: string
  last_seen_at: string | null
  revoked_at: string | null
}

export type RunnerTaskTable = {
  id: string
  workspace_id: string
  work_object_id: string
  conversation_id: string
  runner_kind: LocalRunnerKind
  /** whose runners may take it: the work object's owner (or the requester when it has none) */
  owner_account_id: string
  requested_by: string
  instructions: string | null
  status: RunnerTaskStatus
  confirmed_by: string | null
  confirmed_at: string | null
  runner_id: string | null
  lease_id: string | null
  lease_seconds: number
  lease_expires_at: string | null
  attempt: number
  /** bumped by every change: takes compare and swap on it */
  version: number
  /** JSON text: {message, percent?, at} */
  progress: string | null
  /** JSON text: the signed result */
  result: string | null
  /** SHA-256 of the canonical signed completion (payload and signature) */
  completion_fingerprint: string | null
  /** JSON text: the answer a repeated completion gets */
  completion_response: string | null
  completed_at: string | null
  created_at: string
  updated_at: string
}

export type RunnerNonceTable = {
  runner_id: string
  nonce: string
  task_id: string
  created_at: string
}

export type RunnerTables = {
  runner_grants: RunnerGrantTable
  local_runners: LocalRunnerTable
  runner_tasks: RunnerTaskTable
  runner_nonces: RunnerNonceTable
}
