// Local runner routes. Members pair, list, revoke and ask for tasks with their session cookie; a
// runner calls with `Authorization: Bearer <runnerToken>` (or, to register, `Bearer <grant>`) and
// then acts as its owner with the owner's current membership of the runner's workspace.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import type { AppDeps } from '../../platform/deps.ts'
import { memberOf } from '../../platform/http/guards.ts'
import { AppError } from '../../platform/http/errors.ts'
import { problems } from '../../platform/http/problem.ts'
import { TAGS } from '../../platform/http/tags.ts'
import { findMember } from '../workspace/index.ts'
import type { GrantRow, RunnerRow } from './repo.ts'
import * as schemas from './schemas.ts'
import * as leases from './leases.ts'
import * as service from './service.ts'

const tags = [TAGS.actions]
const RUNNER_AUTH = 'A runner authenticates with `Authorization: Bearer <runnerToken>` instead of the cookie; a revoked runner gets 401 `invalid_runner_token`.'
const TaskRef = Type.Ref('LocalRunnerTask')
const RunnerRef = Type.Ref('LocalRunner')

export function runnerRoutes(base: FastifyInstance, deps: AppDeps) {
  const app = base.withTypeProvider<TypeBoxTypeProvider>()
  const runners = new WeakMap<FastifyRequest, RunnerRow>()
  const grants = new WeakMap<FastifyRequest, GrantRow>()
  const wake = leases.createWaker()
  const closing = new AbortController()
  app.addHook('preClose', async () => closing.abort())

  /** Route-level onRequest: a bearer runner token (or grant) stands in for the session cookie. */
  const bearer = (accepts: 'runner' | 'grant') => async (request: FastifyRequest) => {
    const header = request.headers.authorization
    if (typeof header !== 'string' || !/^Bearer\s+/i.test(header)) return
    const token = header.replace(/^Bearer\s+/i, '').trim()
    let workspaceId: string
    let accountId: string
    let sessionId: string
    if (accepts === 'grant' && token.startsWith(service.GRANT_PREFIX)) {
      const grant = await service.liveGrant(deps, token)
      if (!grant) throw new AppError('invalid_registration_grant', 'This registration grant is unknown, used or expired; create a new one.')
      grants.set(request, grant)
      ;({ workspace_id: workspaceId, account_id: accountId, id: sessionId } = grant)
    } else {
      const runner = await service.activeRunner(deps, token)
      // To register, the bearer is meant to be a grant: an unknown one is a bad grant, not a revoked runner.
      if (!runner && accepts === 'grant') throw new AppError('invalid_registration_grant', 'This registration grant is unknown, used or expired; create a new one.')
      if (!runner) throw new AppError('invalid_runner_token', 'This runner token is unknown or its runner was revoked; pair the runner again.')
      runners.set(request, runner)
      ;({ workspace_id: workspaceId, account_id: accountId, id: sessionId } = runner)
    }
    request.actor = await ownerActor(deps, workspaceId, accountId, sessionId)
  }
  const runnerAuth = bearer('runner')

  app.post('/v1/local-runner/registration-grants', {
    schema: {
      operationId: 'createLocalRunnerRegistrationGrant', tags,
      summary: 'A one-time registration grant (single use, 10 minutes unless `expiresInSeconds`): the member gives it to `confer runner pair` on their machine. Shown once; stored hashed.',
      body: schemas.CreateGrantBody,
      response: { 200: Type.Ref('LocalRunnerRegistrationGrant'), ...problems(400, 401, 403, 409, 422, 429) },
    },
    config: { access: 'edit', idempotent: true },
    // Every field is optional: a bare POST makes a grant with the defaults.
    preValidation: async (request) => {
      request.body ??= {}
    },
  }, (request) => service.createGrant(deps, memberOf(request), request.body ?? {}))

  app.post('/v1/local-runner/registrations', {
    schema: {
      operationId: 'registerLocalRunner', tags,
      summary: 'Registers a runner with its Ed25519 public key for the caller: a signed-in member, or the runner itself with `Authorization: Bearer <registrationGrant>` (single use: a second registration with it gets 401 `invalid_registration_grant`). The same installationId again replaces the older runner. Answers the runner and its token (shown once).',
      body: schemas.RegistrationBody,
      response: { 200: schemas.Registration, ...problems(400, 401, 403, 429) },
    },
    config: { access: 'edit' },
    onRequest: bearer('grant'),
  }, (request) => service.register(deps, memberOf(request), grants.get(request), request.body))

  app.get('/v1/local-runner/runners', {
    schema: {
      operationId: 'listLocalRunners', tags,
      summary: 'The caller\'s runners in this workspace, newest first, revoked ones included.',
      response: { 200: schemas.RunnerList, ...problems(401, 403, 429) },
    },
    config: { access: 'view' },
  }, (request) => service.listRunners(deps, memberOf(request)))

  app.delete('/v1/local-runner/runners/:runnerId', {
    schema: {
      operationId: 'revokeLocalRunner', tags,
      summary: 'Revokes a runner (its owner or a manager): its next call gets 401. Revoking again answers the revoked runner.',
      params: schemas.RunnerParams,
      response: { 200: RunnerRef, ...problems(401, 403, 404, 429) },
    },
    config: { access: 'edit' },
  }, (request) => service.revokeRunner(deps, memberOf(request), request.params.runnerId, wake))

  app.post('/v1/local-runner/tasks', {
    schema: {
      operationId: 'requestLocalRunnerTask', tags,
      summary: 'Accepts `Idempotency-Key`. Asks a runner of the work object\'s owner (the caller\'s when it has none) to do it: `runnerKind`, or the object\'s `nextStep` when that is `runner-a`. Queued at once when the owner asks; otherwise `awaiting-confirmation` until the owner confirms.',
      body: schemas.CreateTaskBody,
      response: { 200: TaskRef, ...problems(400, 401, 403, 404, 409, 422, 429) },
    },
    config: { access: 'edit', idempotent: true },
  }, (request) => service.createTask(deps, memberOf(request), request.body, wake))

  app.get('/v1/local-runner/tasks', {
    schema: {
      operationId: 'listLocalRunnerTasks', tags,
      summary: 'The tasks of a work object (`workObjectId`), or else those the caller asked for or owns; newest first, at most 200.',
      querystring: schemas.TaskListQuery,
      response: { 200: schemas.TaskList, ...problems(400, 401, 403, 404, 429) },
    },
    config: { access: 'view' },
  }, (request) => service.listTasks(deps, memberOf(request), request.query.workObjectId))

  app.post('/v1/local-runner/tasks/take', {
    schema: {
      operationId: 'takeLocalRunnerTask', tags,
      summary: `Runner only (403 \`runner_required\` otherwise). Long poll: leases the oldest queued task of the runner's owner and kinds (a task whose lease lapsed is queued again), waiting up to \`waitSeconds\`; an empty object when none came. Two runners never hold one task. ${RUNNER_AUTH}`,
      body: schemas.TakeBody,
      response: { 200: schemas.TakeResult, ...problems(400, 401, 403, 429) },
    },
    config: { access: 'edit' },
    onRequest: runnerAuth,
  }, async (request, reply) => {
    memberOf(request)
    const runner = runners.get(request)
    if (!runner) throw new AppError('runner_required', 'Only a runner may take tasks: authenticate with `Authorization: Bearer <runnerToken>`.')
    const gone = new AbortController()
    const abort = () => gone.abort()
    closing.signal.addEventListener('abort', abort)
    // The response closes early when the runner hangs up: stop waiting for it.
    reply.raw.once('close', abort)
    try {
      return await leases.takeTask(deps, runner, request.body ?? {}, wake, gone.signal)
    } finally {
      closing.signal.removeEventListener('abort', abort)
      reply.raw.off('close', abort)
    }
  })

  app.get('/v1/local-runner/tasks/:taskId', {
    schema: {
      operationId: 'getLocalRunnerTask', tags,
      summary: 'A task: its status, attempt, lease expiry, latest progress and, once completed, its result and where it landed.',
      params: schemas.TaskParams,
      response: { 200: TaskRef, ...problems(401, 403, 404, 429) },
    },
    config: { access: 'view' },
    onRequest: runnerAuth,
  }, (request) => service.getTask(deps, memberOf(request), request.params.taskId))

  app.post('/v1/local-runner/tasks/:taskId/confirm', {
    schema: {
      operationId: 'confirmLocalRunnerTask', tags,
      summary: 'The owner confirms a task someone else asked for: it joins the queue of the owner\'s runners. 409 when it is not awaiting confirmation.',
      params: schemas.TaskParams,
      response: { 200: TaskRef, ...problems(401, 403, 404, 409, 429) },
    },
    config: { access: 'edit' },
  }, (request) => service.confirmTask(deps, memberOf(request), request.params.taskId, wake))

  app.post('/v1/local-runner/tasks/:taskId/cancel', {
    schema: {
      operationId: 'cancelLocalRunnerTask', tags,
      summary: 'Cancels a task that is not completed (its owner, its requester or a manager): no runner takes it any more, and one holding it loses its lease (409 `lease_lost` on its next call). 409 `task_completed` once completed.',
      params: schemas.TaskParams,
      response: { 200: TaskRef, ...problems(401, 403, 404, 409, 429) },
    },
    config: { access: 'edit' },
  }, (request) => service.cancelTask(deps, memberOf(request), request.params.taskId))

  app.post('/v1/local-runner/tasks/:taskId/progress', {
    schema: {
      operationId: 'reportLocalRunnerTaskProgress', tags,
      summary: `Runner only, under its lease: records progress (on the work channel as \`workobject.runner_task\`) and renews the lease. 409 \`lease_expired\` / \`lease_lost\` when the runner no longer holds it. ${RUNNER_AUTH}`,
      params: schemas.TaskParams,
      body: schemas.ProgressBody,
      response: { 200: schemas.ProgressResult, ...problems(400, 401, 403, 404, 409, 429) },
    },
    config: { access: 'edit' },
    onRequest: runnerAuth,
  }, (request) => leases.reportProgress(deps, memberOf(request), runners.get(request), request.params.taskId, request.body))

  app.post('/v1/local-runner/tasks/:taskId/complete', {
    schema: {
      operationId: 'completeLocalRunnerTask', tags,
      summary: 'Runner only: the signed result of a leased task. Checked: the Ed25519 signature (403 `completion_signature_invalid`), the timestamp within 5 minutes (400 `clock_skew`), the lease and attempt (409 `lease_lost`, `lease_expired`), the nonce unused (409 `nonce_reused`). The result lands on the work object as a revision proposal (`result.proposal`) or a comment, never a stage move. The same completion again answers the stored result; a different one 409 `task_completed`. ' + RUNNER_AUTH,
      params: schemas.TaskParams,
      body: schemas.CompleteBody,
      response: { 200: schemas.CompleteResult, ...problems(400, 401, 403, 404, 409, 429) },
    },
    config: { access: 'edit' },
    onRequest: runnerAuth,
  }, (request) => leases.completeTask(deps, memberOf(request), runners.get(request), request.params.taskId, request.body))
}

/** The runner owner's actor, with their current membership of the runner's workspace. */
async function ownerActor(deps: AppDeps, workspaceId: string, accountId: string, sessionId: string) {
  const member = await findMember(deps.database.db, workspaceId, accountId)
  if (!member) throw new AppError('invalid_runner_token', 'The runner\'s owner is no longer a member of its workspace.')
  return {
    accountId, email: member.email, name: member.name, sessionId,
    membership: { workspaceId, accessRole: member.access_role, contentPermission: member.content_permission, jobRole: member.job_role },
  }
}

/** ports.runnerActor: a runner token's owner, for routes that let a runner act for its owner (agent tools). */
export function runnerActorPort(deps: AppDeps) {
  return async (token: string) => {
    const runner = await service.activeRunner(deps, token)
    if (!runner) throw new AppError('invalid_runner_token', 'This runner token is unknown or its runner was revoked; pair the runner again.')
    return ownerActor(deps, runner.workspace_id, runner.account_id, runner.id)
  }
}
