// Ports: capabilities one module provides to others without either importing the other (which
// would make a cycle). The providing module fills its slot when it is registered (its xModule());
// a caller treats an empty slot as "not available here" and answers accordingly.
import type { Actor } from './auth/actor.ts'
import type { Executor } from './realtime/types.ts'

/** An item read from a connected tool (issue, event, message, document) for external context. */
export type ExternalItem = {
  /** stable within the connection, e.g. `github:owner/repo#12` */
  itemId: string
  connectionId: string
  provider: string
  /** issue | event | message | document | … */
  kind: string
  title: string
  snippet: string
  url: string
  updatedAt?: string
}

export type ExternalContextQuery = {
  workspaceId: string
  projectId: string
  query: string
  /** limit to these connections (each must be one the project may use) */
  connectionIds?: string[]
  limit: number
}

/** What the integrations module offers the memory module: read-only search of connected tools. */
export type ExternalContextSource = (query: ExternalContextQuery) => Promise<{ items: ExternalItem[]; connectionIds: string[] }>

/** What the billing module offers every module that starts new work: limits of the workspace's plan. */
export type Entitlements = {
  /** throws a 402/403 AppError (code `seat_limit_reached`, `plan_inactive`, …) when one more seat is not allowed */
  assertSeatAvailable(executor: Executor, workspaceId: string): Promise<void>
  /** throws when the plan does not allow starting a new recording now */
  assertCanRecord(executor: Executor, workspaceId: string): Promise<void>
}

/**
 * What the sessions module offers the projects module (which sessions import for project checks,
 * so projects cannot import sessions back): a project's capture sessions, presented as
 * SessionSnapshot objects, newest first, archived ones left out.
 */
export type ProjectSessions = (executor: Executor, workspaceId: string, projectId: string) => Promise<Record<string, unknown>[]>

/**
 * What the transcripts module offers the sessions module: how far each session's final transcript reaches (the
 * largest segment end, ms from the session's start), for the sessions that have one. A meeting's length is at least
 * that (an uploaded recording or a pushed transcript starts and ends within a second).
 */
export type TranscriptReach = (executor: Executor, sessionIds: readonly string[]) => Promise<Map<string, number>>

/** What the memory module offers the work module: told in the transaction of every work-set change. */
export type WorkChangeListener = (executor: Executor, change: { workspaceId: string; sessionId: string }) => Promise<void>

/**
 * What the integrations module offers the work module: told, in the transaction of every change to
 * a work object (work/record.ts), so that the object's recommended actions are redrafted after
 * commit (job `integrations.redraft`). `updatedAt` is the object's new updatedAt.
 */
export type WorkObjectChangeListener = (executor: Executor, change: { workspaceId: string; workSetId: string; workObjectId: string; updatedAt: string }) => Promise<void>

/**
 * What the integrations module offers the work module: the ActionV2[] (recommended and prepared
 * actions) and ExecutionV2[] of a work set, for its detail. Changes to them bump the set's revision.
 */
export type WorksetActionsSource = (executor: Executor, workSetId: string) => Promise<{ actions: Record<string, unknown>[]; executions: Record<string, unknown>[] }>
/**
 * What the work module offers transcription (which work reads, so it cannot import work): titles of
 * the workspace's open work (not accepted, not rejected), newest first, except the work of the
 * session being transcribed (its own misheard words must not bias it) — words the default engine
 * is biased toward.
 */
export type OpenWorkTitles = (executor: Executor, workspaceId: string, options: { exceptSessionId: string; limit: number }) => Promise<string[]>

/** A session speaker's running voice embedding (unit length) and how many utterances it holds. */
export type Voiceprint = { embedding: number[]; weight: number }

/** What the voice module offers transcription: where session speakers' embeddings are kept. */
export type Voiceprints = {
  /** the session's stored voiceprints by speaker id (opted-out speakers have none) */
  load(executor: Executor, sessionId: string): Promise<Map<string, Voiceprint>>
  /** stores changed voiceprints inside the transcription's transaction and schedules identification */
  save(executor: Executor, input: { sessionId: string; workspaceId: string; speakers: Array<Voiceprint & { speakerId: string }> }): Promise<void>
  /** the workspace's enrolled, consenting members' profiles: diarization's anchors (platform/speech/speakers.ts) */
  anchors(executor: Executor, workspaceId: string): Promise<number[][]>
  /** what voice recognition says of each session speaker (transcript reads show it) */
  speakerVoices(executor: Executor, workspaceId: string, sessionId: string): Promise<Map<string, SpeakerVoice>>
}

export type SpeakerVoice = {
  state: 'named' | 'suggested' | 'unnamed' | 'opted-out'
  identityId?: string
  /** a near match a person confirms (PATCH /v1/workspace/voice-identities/{identityId} `confirmSpeaker`) */
  suggestion?: { identityId: string; displayName: string; score: number }
}

/**
 * What the runner module offers routes marked `runnerAccess` (agent tools): the actor of a local
 * runner's `Authorization: Bearer` token — its owner, with the owner's current membership. Throws
 * a 401 AppError for an unknown or revoked runner.
 */
export type RunnerActor = (token: string) => Promise<Actor>

export type Ports = {
  runnerActor?: RunnerActor
  externalContext?: ExternalContextSource
  worksetActions?: WorksetActionsSource
  workChanged?: WorkChangeListener
  workObjectChanged?: WorkObjectChangeListener
  entitlements?: Entitlements
  projectSessions?: ProjectSessions
  transcriptReach?: TranscriptReach
  voiceprints?: Voiceprints
  openWorkTitles?: OpenWorkTitles
}
