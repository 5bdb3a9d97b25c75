// TypeBox schemas of the runner module: pairing grants, runners, tasks, leases, signed completions.
import { Type, type Static } from 'typebox'

const Timestamp = Type.String({ format: 'date-time' })
const Id = Type.String({ minLength: 1, maxLength: 80 })
const literals = <const T extends readonly string[]>(values: T, options: Record<string, unknown> = {}) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options })

export const RUNNER_KINDS = ['runner-a', 'runner-b'] as const
export const LocalRunnerKind = literals(RUNNER_KINDS, {
  description: 'LocalRunnerKind. `runner-a` serves the `runner-a` next step of a work object: it prepares internal work and authorizes no external side effect.',
})
export const TaskStatus = literals(['awaiting-confirmation', 'queued', 'leased', 'completed', 'cancelled'] as const, {
  description: 'awaiting-confirmation: a person asked, the owner has not confirmed; queued: waiting for a runner (also after a lease expired); leased: a runner holds it; completed: its signed result landed; cancelled: a person called it off.',
})

// ---- pairing ----

export const CreateGrantBody = Type.Object({
  expiresInSeconds: Type.Optional(Type.Integer({ minimum: 60, maximum: 3600, description: 'Default 600.' })),
}, { additionalProperties: false })
export type CreateGrantBody = Static<typeof CreateGrantBody>

export const RegistrationGrant = Type.Object({
  grantId: Type.String(),
  registrationGrant: Type.String({ description: 'Shown once. Single use: the runner sends it as `Authorization: Bearer <grant>` to POST /v1/local-runner/registrations.' }),
  expiresAt: Timestamp,
  pairCommand: Type.String({ description: 'The command that pairs a runner on the member\'s machine.' }),
}, { $id: 'LocalRunnerRegistrationGrant' })

export const RegistrationBody = Type.Object({
  installationId: Type.String({ minLength: 1, maxLength: 200 }),
  displayName: Type.String({ minLength: 1, maxLength: 200 }),
  supportedRunners: Type.Array(LocalRunnerKind, { minItems: 1, maxItems: 2, uniqueItems: true }),
  capabilities: Type.Array(Type.Object({}, { additionalProperties: true }), {
    maxItems: 50, description: 'What the runner offers besides its kinds (e.g. `{name: "shell"}`), as it declares them.',
  }),
  publicSigningKey: Type.String({
    minLength: 40, maxLength: 400,
    description: 'Ed25519 public key: SPKI PEM, or base64/base64url of the 32 raw bytes. Completions are signed with its private key.',
  }),
}, { additionalProperties: false })
export type RegistrationBody = Static<typeof RegistrationBody>

export const LocalRunner = Type.Object({
  id: Type.String(),
  installationId: Type.String(),
  displayName: Type.String(),
  supportedRunners: Type.Array(LocalRunnerKind),
  capabilities: Type.Array(Type.Object({}, { additionalProperties: true })),
  signingKeyFingerprint: Type.String({ description: 'SHA-256 (hex) of the public key\'s SPKI DER.' }),
  ownerId: Type.String(),
  status: literals(['active', 'revoked'] as const),
  createdAt: Timestamp,
  lastSeenAt: Type.Optional(Timestamp),
  revokedAt: Type.Optional(Timestamp),
}, { $id: 'LocalRunner' })

export const Registration = Type.Object({
  runner: Type.Ref('LocalRunner'),
  runnerToken: Type.String({ description: 'Shown once. The runner authenticates every later call with `Authorization: Bearer <runnerToken>`.' }),
})

export const RunnerList = Type.Object({ runners: Type.Array(Type.Ref('LocalRunner')) })
export const RunnerParams = Type.Object({ runnerId: Id })

// ---- tasks ----

const taskResultShape = {
  outcome: literals(['succeeded', 'failed'] as const),
  output: Type.String({ maxLength: 65_536, description: 'What the command printed (truncated by the runner to its output limit).' }),
  exitCode: Type.Optional(Type.Integer()),
  proposal: Type.Optional(Type.Object({
    title: Type.String({ minLength: 1, maxLength: 500 }),
    summary: Type.Optional(Type.String({ maxLength: 20_000 })),
  }, { additionalProperties: false, description: 'New content for the work object: it lands as a revision proposal a person accepts or rejects.' })),
}
export const TaskResult = Type.Object(taskResultShape, { additionalProperties: false, $id: 'LocalRunnerTaskResult' })
/** The same shape inline, for request bodies (validated in place). */
const TaskResultInput = Type.Object(taskResultShape, { additionalProperties: false })
export type TaskResult = Static<typeof TaskResult>

export const LocalRunnerTask = Type.Object({
  id: Type.String(),
  workObjectId: Type.String(),
  runnerKind: LocalRunnerKind,
  status: TaskStatus,
  instructions: Type.Optional(Type.String()),
  ownerId: Type.String({ description: 'Whose runners take it: the work object\'s owner, or the requester when it has none.' }),
  requestedById: Type.String(),
  confirmedAt: Type.Optional(Timestamp),
  runnerId: Type.Optional(Type.String({ description: 'The runner holding (or that completed) it.' })),
  attempt: Type.Integer({ description: 'How many times a runner has taken it.' }),
  leaseExpiresAt: Type.Optional(Timestamp),
  progress: Type.Optional(Type.Object({ message: Type.String(), percent: Type.Optional(Type.Integer()), at: Timestamp })),
  result: Type.Optional(Type.Ref('LocalRunnerTaskResult')),
  landedAs: Type.Optional(literals(['revision-proposal', 'comment'] as const)),
  completedAt: Type.Optional(Timestamp),
  createdAt: Timestamp,
  updatedAt: Timestamp,
}, { $id: 'LocalRunnerTask' })

export const CreateTaskBody = Type.Object({
  workObjectId: Id,
  runnerKind: Type.Optional(LocalRunnerKind),
  instructions: Type.Optional(Type.String({ maxLength: 4000 })),
}, { additionalProperties: false })
export type CreateTaskBody = Static<typeof CreateTaskBody>

export const TaskParams = Type.Object({ taskId: Id })
export const TaskListQuery = Type.Object({ workObjectId: Type.Optional(Id) })
export const TaskList = Type.Object({ tasks: Type.Array(Type.Ref('LocalRunnerTask')) })

export const TakeBody = Type.Object({
  waitSeconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 30, description: 'Long poll: wait this long for a task (default 20).' })),
  leaseSeconds: Type.Optional(Type.Integer({ minimum: 2, maximum: 600, description: 'How long the lease lasts; each progress report renews it (default 120).' })),
}, { additionalProperties: false })
export type TakeBody = Static<typeof TakeBody>

export const Lease = Type.Object({
  leaseId: Type.String(),
  attempt: Type.Integer(),
  expiresAt: Timestamp,
})

export const TakeResult = Type.Object({
  task: Type.Optional(Type.Ref('LocalRunnerTask')),
  lease: Type.Optional(Lease),
  workObject: Type.Optional(Type.Object({
    id: Type.String(), kind: Type.String(), title: Type.String(), summary: Type.Optional(Type.String()), nextStep: Type.Optional(Type.String()),
  })),
}, { description: 'Empty when no task came within waitSeconds.' })

export const ProgressBody = Type.Object({
  leaseId: Id,
  message: Type.String({ maxLength: 2000 }),
  percent: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
}, { additionalProperties: false })
export type ProgressBody = Static<typeof ProgressBody>

export const ProgressResult = Type.Object({ task: Type.Ref('LocalRunnerTask'), lease: Lease })

export const CompleteBody = Type.Object({
  leaseId: Id,
  attempt: Type.Integer({ minimum: 1 }),
  result: TaskResultInput,
  nonce: Type.String({ minLength: 16, maxLength: 128, description: 'Unique per runner: a nonce already used is refused (409 nonce_reused).' }),
  timestamp: Type.String({ format: 'date-time', description: 'When it was signed; at most 5 minutes from the server\'s clock.' }),
  signature: Type.String({
    minLength: 1, maxLength: 200,
    description: 'base64url Ed25519 signature, by the registered key, of the RFC 8785 canonical JSON of {taskId, leaseId, attempt, resultSha256, nonce, timestamp}, where resultSha256 is the hex SHA-256 of the canonical JSON of `result`.',
  }),
}, { additionalProperties: false })
export type CompleteBody = Static<typeof CompleteBody>

export const CompleteResult = Type.Object({
  task: Type.Ref('LocalRunnerTask'),
  landedAs: literals(['revision-proposal', 'comment'] as const),
  revisionId: Type.Optional(Type.String()),
  commentId: Type.Optional(Type.String()),
})

export const runnerSchemas = [RegistrationGrant, LocalRunner, TaskResult, LocalRunnerTask]
