// Row types of Confer's own tables, one file per owning module under tables/ (the owner is the only
// module that queries them: test/architecture.test.ts checks it). better-auth owns auth_user,
// auth_session, auth_account and auth_verification (created by its own migrator, see migrate.ts).
// Timestamps are ISO 8601 text on both databases, booleans are 0/1 integers: one portable shape.
import type { PlatformTables } from './tables/platform.ts'
import type { WorkspaceTables } from './tables/workspace.ts'
import type { ProjectsTables } from './tables/projects.ts'
import type { AssetsTables } from './tables/assets.ts'
import type { SessionsTables } from './tables/sessions.ts'
import type { TranscriptsTables } from './tables/transcripts.ts'
import type { SharesTables } from './tables/shares.ts'
import type { ExtractionTables } from './tables/extraction.ts'
import type { WorkTables } from './tables/work.ts'
import type { NotificationsTables } from './tables/notifications.ts'
import type { BillingTables } from './tables/billing.ts'
import type { RunnerTables } from './tables/runner.ts'
import type { MemoryTables } from './tables/memory.ts'
import type { IntegrationsTables } from './tables/integrations.ts'
import type { VoiceTables } from './tables/voice.ts'

export type * from './tables/platform.ts'
export type * from './tables/workspace.ts'
export type * from './tables/projects.ts'
export type * from './tables/assets.ts'
export type * from './tables/sessions.ts'
export type * from './tables/transcripts.ts'
export type * from './tables/shares.ts'
export type * from './tables/extraction.ts'
export type * from './tables/work.ts'
export type * from './tables/notifications.ts'
export type * from './tables/billing.ts'
export type * from './tables/runner.ts'
export type * from './tables/memory.ts'
export type * from './tables/integrations.ts'
export type * from './tables/voice.ts'

export type Tables = PlatformTables &
  WorkspaceTables &
  NotificationsTables &
  ProjectsTables &
  AssetsTables &
  SessionsTables &
  TranscriptsTables &
  SharesTables &
  ExtractionTables &
  WorkTables &
  BillingTables &
  RunnerTables &
  MemoryTables &
  IntegrationsTables &
  VoiceTables
