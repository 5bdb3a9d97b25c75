// AppError carries a stable `code`; the problem handler turns it into RFC 9457 problem+json.
// Every code a client may see is listed here once, with its status.
export const ERROR_CODES = {
  validation_failed: 400,
  clock_skew: 400,
  invalid_cursor: 400,
  missing_header: 400,
  invalid_signature: 400,
  unauthenticated: 401,
  seat_limit_reached: 402,
  seat_limit_exceeded: 402,
  plan_inactive: 402,
  invalid_runner_token: 401,
  invalid_registration_grant: 401,
  forbidden: 403,
  codebase_not_allowed: 403,
  invalid_token: 403,
  token_expired: 403,
  cross_site_request: 403,
  no_workspace: 403,
  invitation_email_mismatch: 403,
  runner_required: 403,
  completion_signature_invalid: 403,
  approval_invalid: 403,
  approval_expired: 403,
  integration_not_allowed: 403,
  not_found: 404,
  route_not_found: 404,
  invitation_used: 404,
  invitation_revoked: 404,
  invitation_expired: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  conflict: 409,
  idempotency_in_flight: 409,
  already_member: 409,
  invitation_pending: 409,
  last_owner: 409,
  stale_revision: 409,
  stale_timestamp: 409,
  stage_conflict: 409,
  transition_not_allowed: 409,
  proposal_pending: 409,
  billing_disabled: 409,
  already_subscribed: 409,
  no_subscription: 409,
  lease_lost: 409,
  lease_expired: 409,
  nonce_reused: 409,
  task_completed: 409,
  memory_conflict_settled: 409,
  codebase_indexing: 409,
  approval_required: 409,
  approval_used: 409,
  approval_void: 409,
  action_state_conflict: 409,
  connection_not_ready: 409,
  connection_revoked: 409,
  action_superseded: 409,
  oauth_not_configured: 409,
  recommendation_incomplete: 409,
  payload_too_large: 413,
  codebase_too_large: 413,
  unsupported_media_type: 415,
  unsupported_image: 415,
  upgrade_required: 426,
  idempotency_key_reused: 422,
  codebase_unavailable: 422,
  provider_refused: 422,
  credential_refused: 422,
  rate_limited: 429,
  headers_too_large: 431,
  internal_error: 500,
  provider_unavailable: 502,
  service_unavailable: 503,
} as const

export type ErrorCode = keyof typeof ERROR_CODES

export type FieldError = { field: string; code: string; message: string }

export class AppError extends Error {
  readonly code: ErrorCode
  readonly statusCode: number
  readonly errors: FieldError[] | undefined
  readonly extra: Record<string, unknown>
  readonly headers: Record<string, string>

  constructor(code: ErrorCode, detail: string, options: {
    errors?: FieldError[]
    extra?: Record<string, unknown>
    headers?: Record<string, string>
  } = {}) {
    super(detail)
    this.name = 'AppError'
    this.code = code
    this.statusCode = ERROR_CODES[code]
    this.errors = options.errors
    this.extra = options.extra ?? {}
    this.headers = options.headers ?? {}
  }
}

export const notFound = (what: string, id?: string): never => {
  throw new AppError('not_found', id ? `No ${what} with id ${id}.` : `No such ${what}.`)
}

export const badRequest = (field: string, code: string, message: string): AppError =>
  new AppError('validation_failed', message, { errors: [{ field, code, message }] })
