// Row types of the tables owned by the platform (jobs, blobs, mail, one-time codes, idempotency, the realtime event log; better-auth's auth_* tables read through here).
// Only that owner queries them; other modules go through its index.ts (docs/ARCHITECTURE.md).
import type { ColumnType, Generated } from 'kysely'

export type BlobTable = {
  key: string
  data: Uint8Array
  byte_size: number
  created_at: string
}

export type MailOutboxTable = {
  id: string
  to_address: string
  subject: string
  body_text: string | null
  status: 'sent' | 'stored' | 'failed'
  error: string | null
  created_at: string
}

export type OtpMailboxTable = { email: string; updated_at: string }
export type OtpSendTable = { id: string; email: string; sent_at: string }

export type IdempotencyKeyTable = {
  account_id: string
  method: string
  route: string
  key: string
  fingerprint: string
  state: 'in-flight' | 'completed'
  status_code: number | null
  response_body: string | null
  created_at: string
  expires_at: string
}

export type AuthUserTable = {
  id: string
  name: string
  email: string
  emailVerified: ColumnType<boolean | number, boolean | number, boolean | number>
  image: string | null
  createdAt: ColumnType<Date | string, Date | string, Date | string>
  updatedAt: ColumnType<Date | string, Date | string, Date | string>
}

export type AuthSessionTable = {
  id: string
  token: string
  userId: string
  expiresAt: ColumnType<Date | string, Date | string, Date | string>
  createdAt: ColumnType<Date | string, Date | string, Date | string>
  updatedAt: ColumnType<Date | string, Date | string, Date | string>
}

export type ConversationEventCounterTable = { conversation_id: string; last_seq: number }

export type ConversationEventTable = {
  conversation_id: string
  seq: number
  type: string
  channel: 'session' | 'work'
  /** JSON text */
  data: string
  at: string
}

export type JobState = 'queued' | 'running' | 'succeeded' | 'dead'

export type JobTable = {
  id: string
  name: string
  /** JSON text */
  payload: string
  state: JobState
  attempts: ColumnType<number, number | undefined, number>
  max_attempts: number
  run_at: string
  /** the node that claimed it last */
  locked_by: string | null
  locked_until: string | null
  last_error: string | null
  dedupe_key: string | null
  created_at: string
  updated_at: string
  finished_at: string | null
}

export type PlatformTables = {
  blobs: BlobTable
  mail_outbox: MailOutboxTable
  otp_mailboxes: OtpMailboxTable
  otp_sends: OtpSendTable
  idempotency_keys: IdempotencyKeyTable
  conversation_event_counters: ConversationEventCounterTable
  conversation_events: ConversationEventTable
  jobs: JobTable
  auth_user: AuthUserTable
  auth_session: AuthSessionTable
  schema_probe: { id: Generated<number> }
}
