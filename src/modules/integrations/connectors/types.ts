// The one interface every connector implements: its actions (each with a JSON Schema input and a
// version that approvals are bound to), the choices of a field from the live connection, the
// execution of a frozen payload, and a read-only search for external context.
import type { TSchema } from 'typebox'
import type { ExternalItem } from '../../../platform/ports.ts'
import type { ConnectionAuthType } from '../../../platform/db/tables.ts'
import type { Config } from '../../../config.ts'
import type { Mailer } from '../../../platform/mail/mailer.ts'

export type ActionDefinition = {
  /** catalog id, `<service>.<verb>`, e.g. github.create_issue */
  id: string
  /** bumped when what the action sends changes: an approval for another version is void */
  version: number
  title: string
  description: string
  /** JSON Schema of the input (TypeBox) */
  input: TSchema
  /** fields whose choices come from the live connection (field options) */
  optionFields: string[]
  /**
   * `idempotent`: the call may simply be sent again (the provider dedupes);
   * `reconcile`: not idempotent, but a started call can be looked up before sending again;
   * `once`: neither: never retried after the call may have reached the provider.
   */
  retry: 'idempotent' | 'reconcile' | 'once'
}

export type ConnectionContext = {
  connectionId: string
  /** the decrypted credential (never logged) */
  credential: Record<string, string>
  settings: Record<string, unknown>
  config: Config
  mailer: Mailer
  signal?: AbortSignal
}

export type Receipt = { externalId: string; url?: string; summary: string; [key: string]: unknown }

export type FieldOption = { value: string; label: string }

export type Connector = {
  service: string
  title: string
  authTypes: ConnectionAuthType[]
  /** JSON Schema of the credential for api_key / custom_credential connections */
  credential: TSchema | undefined
  /** JSON Schema of the connection's non-secret settings */
  settings: TSchema | undefined
  actions: ActionDefinition[]
  fieldOptions?(context: ConnectionContext, actionId: string, field: { name: string; values: Record<string, unknown> }, page: { query: string; cursor: string | undefined }): Promise<{ options: FieldOption[]; nextCursor?: string }>
  /** what the frozen payload becomes before approval (e.g. a marker that finds the created item again) */
  freeze?(actionId: string, input: Record<string, unknown>, actionRowId: string): Record<string, unknown>
  execute(context: ConnectionContext, actionId: string, payload: Record<string, unknown>, ids: { actionRowId: string; executionId: string }): Promise<Receipt>
  /** for `reconcile` actions: the item a started call made, if it made one */
  reconcile?(context: ConnectionContext, actionId: string, payload: Record<string, unknown>, ids: { actionRowId: string; executionId: string }): Promise<Receipt | undefined>
  search?(context: ConnectionContext, query: string, limit: number): Promise<ExternalItem[]>
  /**
   * One cheap authenticated call the provider documents for checking a credential (GitHub `GET /user`,
   * Linear's `viewer`, Slack's `auth.test`), made when a connection is created. Throws a ProviderError
   * (status 401 when the provider refused the credential).
   */
  verify?(context: ConnectionContext): Promise<void>
}

/** A provider's refusal or failure, with whether trying again later may succeed. */
export class ProviderError extends Error {
  readonly status: number | undefined
  readonly retryable: boolean
  readonly retryAfterMs: number | undefined
  constructor(message: string, options: { status?: number; retryable: boolean; retryAfterMs?: number }) {
    super(message)
    this.name = 'ProviderError'
    this.status = options.status
    this.retryable = options.retryable
    this.retryAfterMs = options.retryAfterMs
  }
}

/**
 * A `Retry-After` header (RFC 9110 §10.2.3) as milliseconds from `now`: delay-seconds or an
 * HTTP-date (a date in the past is 0). Undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  const text = value?.trim()
  if (!text) return undefined
  if (/^\d+$/.test(text)) return Number(text) * 1000
  const at = Date.parse(text)
  return Number.isFinite(at) && /[a-z]/i.test(text) ? Math.max(0, at - now) : undefined
}

/** 429 and 5xx may pass; everything else is the request's own fault. */
export function providerError(status: number | undefined, message: string, retryAfter?: string | null) {
  const retryable = status === undefined || status === 429 || status >= 500
  const retryAfterMs = retryable ? parseRetryAfter(retryAfter) : undefined
  return new ProviderError(message, { status, retryable, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) })
}
