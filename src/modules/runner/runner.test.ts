// Local runners through HTTP on both databases: pairing (single-use grants, revocation → 401),
// tasks from work objects (owner's confirmation, isolation), leases under concurrency, progress,
// and signed completions (signature, skew, lease, nonce, replay) landing on the work object.
import { beforeAll, describe, expect, it } from 'vitest'
import { eachDatabase, type Member } from '../../../test/harness.ts'
import { inviteAndJoin } from '../workspace/testing.ts'
import { pairRunner, runnerKey, signedCompletion, workObjectFor, type TestRunner } from './testing.ts'

const RESULT = { outcome: 'succeeded', output: 'Release notes drafted: 3 sections.', exitCode: 0 }

eachDatabase('local runner', (h) => {
  let owner: Member
  let viewer: Member
  let colleague: Member
  let stranger: Member
  beforeAll(async () => {
    owner = await h.member()
    viewer = await inviteAndJoin(h, owner, { contentPermission: 'view' })
    colleague = await inviteAndJoin(h, owner)
    stranger = await h.member()
  })

  /** A queued task of the owner's, on a fresh work object whose next step is runner-a. */
  async function queuedTask(member = owner) {
    const object = await workObjectFor(member)
    const created = await member.post('/v1/local-runner/tasks', { workObjectId: object.id })
    expect(created.statusCode, created.body).toBe(200)
    return { object, task: created.json() }
  }

  async function take(runner: TestRunner, body: Record<string, unknown> = {}) {
    const response = await runner.request('POST', '/v1/local-runner/tasks/take', { waitSeconds: 0, ...body })
    expect(response.statusCode, response.body).toBe(200)
    return response.json()
  }

  /** Takes until the given task comes (older tasks of the owner are completed out of the way). */
  async function takeTask(runner: TestRunner, taskId: string, body: Record<string, unknown> = {}) {
    for (let i = 0; i < 20; i += 1) {
      const taken = await take(runner, body)
      if (!taken.task) throw new Error(`task ${taskId} was not offered`)
      if (taken.task.id === taskId) return taken
      await runner.request('POST', `/v1/local-runner/tasks/${taken.task.id}/complete`, signedCompletion(runner, taken.task.id, taken.lease, RESULT))
    }
    throw new Error('too many tasks ahead')
  }

  describe('pairing', () => {
    it('creates a single-use grant that a runner registers with, once', async () => {
      const grant = await owner.post('/v1/local-runner/registration-grants', {})
      expect(grant.statusCode).toBe(200)
      expect(grant.json().registrationGrant).toMatch(/^crg_[\w-]{43}$/)
      expect(Date.parse(grant.json().expiresAt) - Date.now()).toBeGreaterThan(500_000)
      const key = runnerKey()
      const body = { installationId: 'inst-1', displayName: 'My laptop', supportedRunners: ['runner-a', 'runner-b'], capabilities: [{ name: 'shell' }], publicSigningKey: key.publicSigningKey }
      const headers = { authorization: `Bearer ${grant.json().registrationGrant}` }
      const [first, second] = await Promise.all([
        h.app.inject({ method: 'POST', url: '/v1/local-runner/registrations', headers, payload: body }),
        h.app.inject({ method: 'POST', url: '/v1/local-runner/registrations', headers, payload: body }),
      ])
      const statuses = [first.statusCode, second.statusCode].sort()
      expect(statuses).toEqual([200, 401])
      const ok = first.statusCode === 200 ? first : second
      expect(ok.json()).toMatchObject({ runner: { installationId: 'inst-1', displayName: 'My laptop', supportedRunners: ['runner-a', 'runner-b'], ownerId: owner.accountId, status: 'active' } })
      expect(ok.json().runnerToken).toMatch(/^crt_/)
      const replay = await h.app.inject({ method: 'POST', url: '/v1/local-runner/registrations', headers, payload: body })
      expect(replay.statusCode).toBe(401)
      expect(replay.json().code).toBe('invalid_registration_grant')
      const listed = await owner.get('/v1/local-runner/runners')
      expect(listed.json().runners.map((runner: { id: string }) => runner.id)).toContain(ok.json().runner.id)
      expect(JSON.stringify(listed.json())).not.toContain('crt_')
    })

    it('refuses a key that is not Ed25519, bad grants, and view members', async () => {
      const bad = await owner.post('/v1/local-runner/registrations', { installationId: 'x', displayName: 'x', supportedRunners: ['runner-a'], capabilities: [], publicSigningKey: 'A'.repeat(44) })
      expect(bad.statusCode).toBe(400)
      expect(bad.json().errors[0].field).toBe('publicSigningKey')
      const unknownKind = await owner.post('/v1/local-runner/registrations', { installationId: 'x', displayName: 'x', supportedRunners: ['runner-c'], capabilities: [], publicSigningKey: runnerKey().publicSigningKey })
      expect(unknownKind.statusCode).toBe(400)
      expect((await owner.post('/v1/local-runner/registration-grants', { expiresInSeconds: 5 })).statusCode).toBe(400)
      // No body at all (every field is optional) makes a grant with the defaults.
      const bare = await owner.post('/v1/local-runner/registration-grants')
      expect(bare.statusCode).toBe(200)
      expect(bare.json().pairCommand).toContain(bare.json().registrationGrant)
      const forged = await h.app.inject({ method: 'POST', url: '/v1/local-runner/registrations', headers: { authorization: 'Bearer crg_forged' }, payload: {} })
      expect([forged.statusCode, forged.json().code]).toEqual([401, 'invalid_registration_grant'])
      // A mistyped grant (no `crg_` prefix) is a bad grant too, not a revoked runner's token.
      const mistyped = await h.app.inject({ method: 'POST', url: '/v1/local-runner/registrations', headers: { authorization: 'Bearer bogus' }, payload: {} })
      expect([mistyped.statusCode, mistyped.json().code]).toEqual([401, 'invalid_registration_grant'])
      expect((await viewer.post('/v1/local-runner/registration-grants', {})).json().code).toBe('forbidden')
      expect((await h.anonymous.post('/v1/local-runner/registration-grants', {})).statusCode).toBe(401)
    })

    it('lists only the caller\'s runners; a revoked runner gets 401 on its next call', async () => {
      const runner = await pairRunner(h, owner)
      expect((await stranger.get('/v1/local-runner/runners')).json().runners).toEqual([])
      expect((await stranger.delete(`/v1/local-runner/runners/${runner.id}`)).statusCode).toBe(404)
      expect((await viewer.delete(`/v1/local-runner/runners/${runner.id}`)).statusCode).toBe(403)
      expect((await colleague.delete(`/v1/local-runner/runners/${runner.id}`)).statusCode).toBe(403)
      expect((await take(runner))).toEqual({})
      const revoked = await owner.delete(`/v1/local-runner/runners/${runner.id}`)
      expect(revoked.json()).toMatchObject({ id: runner.id, status: 'revoked' })
      const after = await runner.request('POST', '/v1/local-runner/tasks/take', { waitSeconds: 0 })
      expect(after.statusCode).toBe(401)
      expect(after.json().code).toBe('invalid_runner_token')
    })

    it('ends a waiting long poll with 401 when the runner is revoked', async () => {
      const runner = await pairRunner(h, owner)
      const started = Date.now()
      const waiting = runner.request('POST', '/v1/local-runner/tasks/take', { waitSeconds: 20 })
      await new Promise((resolve) => setTimeout(resolve, 300))
      await owner.delete(`/v1/local-runner/runners/${runner.id}`)
      const answer = await waiting
      expect([answer.statusCode, answer.json().code]).toEqual([401, 'invalid_runner_token'])
      expect(Date.now() - started).toBeLessThan(5000)
    })

    it('replaces the older runner of the same installation', async () => {
      const first = await pairRunner(h, owner, { installationId: 'same-machine' })
      const second = await pairRunner(h, owner, { installationId: 'same-machine' })
      expect((await first.request('POST', '/v1/local-runner/tasks/take', { waitSeconds: 0 })).statusCode).toBe(401)
      expect((await second.request('POST', '/v1/local-runner/tasks/take', { waitSeconds: 0 })).statusCode).toBe(200)
    })
  })

  describe('agent tools on the owner\'s behalf', () => {
    it('lets a runner list and call agent tools with its token; nothing else, and not once revoked', async () => {
      const runner = await pairRunner(h, owner)
      const tools = await runner.request('GET', '/v1/agent/external-tools')
      expect(tools.statusCode, tools.body).toBe(200)
      expect(Array.isArray(tools.json().tools)).toBe(true)
      // A tool that does not exist is the owner's 404, not a 401: the runner acts as its owner.
      const call = await runner.request('POST', '/v1/agent/external-tools/github_create_issue__con_01JAAAAAAAAAAAAAAAAAAAAAAA', { input: { title: 'x' } })
      expect(call.statusCode, call.body).toBe(404)
      // Routes that do not take a runner's token answer 401 to it.
      expect((await runner.request('GET', '/v1/projects')).statusCode).toBe(401)
      expect((await h.app.inject({ method: 'GET', url: '/v1/agent/external-tools', headers: { authorization: 'Bearer crt_forged' } })).json().code).toBe('invalid_runner_token')
      await owner.delete(`/v1/local-runner/runners/${runner.id}`)
      const afterRevoke = await runner.request('GET', '/v1/agent/external-tools')
      expect(afterRevoke.statusCode).toBe(401)
      expect(afterRevoke.json().code).toBe('invalid_runner_token')
    })
  })

  describe('tasks', () => {
    it('queues a task from a runner-a work object when its owner asks, and needs the owner to confirm otherwise', async () => {
      const { object, task } = await queuedTask()
      expect(task).toMatchObject({ workObjectId: object.id, runnerKind: 'runner-a', status: 'queued', ownerId: owner.accountId, attempt: 0 })
      // The colleague asks on an object that the owner owns: it waits for the owner.
      const owned = await workObjectFor(owner, { nextStep: 'organize' })
      await owner.post(`/v1/workobjects/${owned.id}/assignment`, { action: 'claim' })
      const asked = await colleague.post('/v1/local-runner/tasks', { workObjectId: owned.id, runnerKind: 'runner-a', instructions: 'Draft it' })
      expect(asked.json()).toMatchObject({ status: 'awaiting-confirmation', ownerId: owner.accountId, requestedById: colleague.accountId, instructions: 'Draft it' })
      const id = asked.json().id
      expect((await colleague.post(`/v1/local-runner/tasks/${id}/confirm`)).statusCode).toBe(403)
      expect((await stranger.post(`/v1/local-runner/tasks/${id}/confirm`)).statusCode).toBe(404)
      const confirmed = await owner.post(`/v1/local-runner/tasks/${id}/confirm`)
      expect(confirmed.json()).toMatchObject({ status: 'queued', confirmedAt: expect.any(String) })
      expect((await owner.post(`/v1/local-runner/tasks/${id}/confirm`)).statusCode).toBe(409)
      const listed = await colleague.get(`/v1/local-runner/tasks?workObjectId=${owned.id}`)
      expect(listed.json().tasks.map((t: { id: string }) => t.id)).toEqual([id])
    })

    it('creates one task per Idempotency-Key, replaying the first answer', async () => {
      const object = await workObjectFor(owner)
      const headers = { 'idempotency-key': `task-${object.id}` }
      const [first, second] = await Promise.all([1, 2].map(() => owner.post('/v1/local-runner/tasks', { workObjectId: object.id }, headers)))
      const answers = [first!, second!].filter((answer) => answer.statusCode === 200)
      expect(answers.length).toBeGreaterThanOrEqual(1)
      const replay = await owner.post('/v1/local-runner/tasks', { workObjectId: object.id }, headers)
      expect(replay.headers['idempotent-replayed']).toBe('true')
      expect(replay.json().id).toBe(answers[0]!.json().id)
      expect((await owner.post('/v1/local-runner/tasks', { workObjectId: object.id, instructions: 'other' }, headers)).statusCode).toBe(422)
      expect((await owner.get(`/v1/local-runner/tasks?workObjectId=${object.id}`)).json().tasks).toHaveLength(1)
    })

    it('refuses a work object without a runner step unless a kind is given, and other workspaces\' objects', async () => {
      const plain = await workObjectFor(owner, { nextStep: 'organize' })
      const refused = await owner.post('/v1/local-runner/tasks', { workObjectId: plain.id })
      expect(refused.statusCode).toBe(400)
      expect(refused.json().errors[0].field).toBe('runnerKind')
      expect((await stranger.post('/v1/local-runner/tasks', { workObjectId: plain.id, runnerKind: 'runner-a' })).statusCode).toBe(404)
      expect((await viewer.post('/v1/local-runner/tasks', { workObjectId: plain.id, runnerKind: 'runner-a' })).statusCode).toBe(403)
      const { task } = await queuedTask()
      expect((await stranger.get(`/v1/local-runner/tasks/${task.id}`)).statusCode).toBe(404)
      expect((await viewer.get(`/v1/local-runner/tasks/${task.id}`)).json().status).toBe('queued')
    })

    it('gives a task to the owner\'s runners only, and to exactly one of them however many take at once', async () => {
      const person = await h.member()
      const first = await pairRunner(h, person)
      const second = await pairRunner(h, person)
      const foreign = await pairRunner(h, stranger)
      const onlyB = await pairRunner(h, person, { supportedRunners: ['runner-b'] })
      const { task } = await queuedTask(person)
      expect(await take(foreign)).toEqual({})
      expect(await take(onlyB)).toEqual({})
      expect((await person.post('/v1/local-runner/tasks/take', { waitSeconds: 0 })).json().code).toBe('runner_required')
      const takes = await Promise.all(Array.from({ length: 8 }, (_, i) => take(i % 2 ? first : second)))
      const won = takes.filter((taken) => taken.task)
      expect(won).toHaveLength(1)
      expect(won[0]).toMatchObject({ task: { id: task.id, status: 'leased', attempt: 1 }, lease: { leaseId: expect.stringMatching(/^lse_/), attempt: 1 }, workObject: { nextStep: 'runner-a' } })
      expect((await person.get(`/v1/local-runner/tasks/${task.id}`)).json()).toMatchObject({ status: 'leased', leaseExpiresAt: won[0].lease.expiresAt })
    })

    it('cancels a task: no runner takes it, the one holding it loses its lease, a completed one stays', async () => {
      const person = await inviteAndJoin(h, owner)
      const runner = await pairRunner(h, person)
      const { task: waiting } = await queuedTask(person)
      expect((await colleague.post(`/v1/local-runner/tasks/${waiting.id}/cancel`)).statusCode).toBe(403)
      expect((await stranger.post(`/v1/local-runner/tasks/${waiting.id}/cancel`)).statusCode).toBe(404)
      expect((await person.post(`/v1/local-runner/tasks/${waiting.id}/cancel`)).json().status).toBe('cancelled')
      expect(await take(runner)).toEqual({})
      const { task: held } = await queuedTask(person)
      const { lease } = await take(runner)
      expect((await owner.post(`/v1/local-runner/tasks/${held.id}/cancel`)).json().status).toBe('cancelled')
      const late = await runner.request('POST', `/v1/local-runner/tasks/${held.id}/complete`, signedCompletion(runner, held.id, lease, RESULT))
      expect(late.json().code).toBe('lease_lost')
      const { task: done } = await queuedTask(person)
      const taken = await take(runner)
      expect((await runner.request('POST', `/v1/local-runner/tasks/${done.id}/complete`, signedCompletion(runner, done.id, taken.lease, RESULT))).statusCode).toBe(200)
      expect((await person.post(`/v1/local-runner/tasks/${done.id}/cancel`)).json().code).toBe('task_completed')
    })

    it('hands each of several tasks to exactly one of several runners taking at once', async () => {
      const person = await h.member()
      const pool = await Promise.all([1, 2, 3].map(() => pairRunner(h, person)))
      const tasks = await Promise.all(Array.from({ length: 6 }, () => queuedTask(person)))
      const takenBy = new Map<string, string[]>()
      await Promise.all(pool.flatMap((runner) => [1, 2].map(async () => {
        for (;;) {
          const taken = await take(runner)
          if (!taken.task) return
          takenBy.set(taken.task.id, [...(takenBy.get(taken.task.id) ?? []), runner.id])
        }
      })))
      expect([...takenBy.keys()].sort()).toEqual(tasks.map(({ task }) => task.id).sort())
      expect([...takenBy.values()].every((holders) => holders.length === 1)).toBe(true)
    })

    it('wakes a long poll when a task is queued', async () => {
      const person = await h.member()
      const runner = await pairRunner(h, person)
      const started = Date.now()
      const waiting = runner.request('POST', '/v1/local-runner/tasks/take', { waitSeconds: 10 })
      await new Promise((resolve) => setTimeout(resolve, 300))
      const { task } = await queuedTask(person)
      const taken = await waiting
      expect(taken.json().task.id).toBe(task.id)
      expect(Date.now() - started).toBeLessThan(5000)
    })

    it('returns a task whose lease lapsed to the queue, and refuses the old lease', async () => {
      const person = await h.member()
      const runner = await pairRunner(h, person)
      const other = await pairRunner(h, person)
      const { task } = await queuedTask(person)
      const first = await take(runner, { leaseSeconds: 3 })
      const progress = await runner.request('POST', `/v1/local-runner/tasks/${task.id}/progress`, { leaseId: first.lease.leaseId, message: 'Reading the transcript', percent: 10 })
      expect(progress.json()).toMatchObject({ task: { progress: { message: 'Reading the transcript', percent: 10 } } })
      await new Promise((resolve) => setTimeout(resolve, 3300))
      expect((await person.get(`/v1/local-runner/tasks/${task.id}`)).json().status).toBe('queued')
      const late = await runner.request('POST', `/v1/local-runner/tasks/${task.id}/complete`, signedCompletion(runner, task.id, first.lease, RESULT))
      expect(late.statusCode).toBe(409)
      expect(late.json().code).toBe('lease_expired')
      const second = await take(other)
      expect(second).toMatchObject({ task: { id: task.id, attempt: 2 }, lease: { attempt: 2 } })
      const stale = await runner.request('POST', `/v1/local-runner/tasks/${task.id}/progress`, { leaseId: first.lease.leaseId, message: 'still here' })
      expect(stale.json().code).toBe('lease_lost')
      const done = await other.request('POST', `/v1/local-runner/tasks/${task.id}/complete`, signedCompletion(other, task.id, second.lease, RESULT))
      expect(done.statusCode, done.body).toBe(200)
    })
  })

  describe('signed completion', () => {
    it('lands a verified result as a comment, answers a repeat with the stored result and a different one with 409', async () => {
      const runner = await pairRunner(h, owner)
      const { object, task } = await queuedTask()
      const { lease } = await takeTask(runner, task.id)
      const body = signedCompletion(runner, task.id, lease, RESULT)
      const done = await runner.request('POST', `/v1/local-runner/tasks/${task.id}/complete`, body)
      expect(done.statusCode, done.body).toBe(200)
      expect(done.json()).toMatchObject({ landedAs: 'comment', commentId: expect.stringMatching(/^cmt_/), task: { status: 'completed', result: RESULT, landedAs: 'comment' } })
      const comments = (await owner.get(`/v1/workobjects/${object.id}/comments`)).json()
      expect(comments).toHaveLength(1)
      expect(comments[0].body).toContain('Release notes drafted')
      const again = await runner.request('POST', `/v1/local-runner/tasks/${task.id}/complete`, body)
      expect(again.statusCode).toBe(200)
      expect(again.json()).toEqual(done.json())
      const different = await runner.request('POST', `/v1/local-runner/tasks/${task.id}/complete`, signedCompletion(runner, task.id, lease, { ...RESULT, output: 'other' }))
      expect(different.statusCode).toBe(409)
      expect(different.json().code).toBe('task_completed')
      expect((await owner.get(`/v1/workobjects/${object.id}/comments`)).json()).toHaveLength(1)
      expect((await owner.get(`/v1/workobjects/${object.id}`)).statusCode).not.toBe(500)
    })

    it('lands a proposal as a pending revision and leaves the stage alone', async () => {
      const runner = await pairRunner(h, owner)
      const { object, task } = await queuedTask()
      const { lease } = await takeTask(runner, task.id)
      const result = { outcome: 'succeeded', output: 'ok', proposal: { title: 'Release notes, drafted', summary: 'Three sections, reviewed by the runner.' } }
      const done = await runner.request('POST', `/v1/local-runner/tasks/${task.id}/complete`, signedCompletion(runner, task.id, lease, result))
      expect(done.json()).toMatchObject({ landedAs: 'revision-proposal', revisionId: expect.stringMatching(/^rev_/) })
      const revisions = (await owner.get(`/v1/workobjects/${object.id}/revisions`)).json().revisions
      expect(revisions).toEqual(expect.arrayContaining([expect.objectContaining({ id: done.json().revisionId, content: expect.objectContaining({ title: 'Release notes, drafted' }) })]))
      const set = (await owner.get(`/v1/worksets/${object.workSetId}`)).json()
      const now = set.workObjects.find((candidate: { id: string }) => candidate.id === object.id)
      expect(now).toMatchObject({ stage: object.stage, title: object.title, proposal: { state: 'pending', kind: 'revision' } })
    })

    it('refuses a tampered signature, a stale timestamp, a reused nonce, another runner and a cookie', async () => {
      const runner = await pairRunner(h, owner)
      const { task } = await queuedTask()
      const { lease } = await takeTask(runner, task.id)
      const url = `/v1/local-runner/tasks/${task.id}/complete`
      const tampered = { ...signedCompletion(runner, task.id, lease, RESULT), result: { ...RESULT, output: 'tampered' } }
      expect((await runner.request('POST', url, tampered)).json().code).toBe('completion_signature_invalid')
      const otherKey = { ...signedCompletion({ privateKey: runnerKey().privateKey }, task.id, lease, RESULT) }
      expect((await runner.request('POST', url, otherKey)).json().code).toBe('completion_signature_invalid')
      const old = signedCompletion(runner, task.id, lease, RESULT, { timestamp: new Date(Date.now() - 6 * 60_000).toISOString() })
      const stale = await runner.request('POST', url, old)
      expect(stale.statusCode).toBe(400)
      expect(stale.json().code).toBe('clock_skew')
      const wrongAttempt = await runner.request('POST', url, signedCompletion(runner, task.id, { ...lease, attempt: lease.attempt + 1 }, RESULT))
      expect(wrongAttempt.json().code).toBe('lease_lost')
      const colleagueRunner = await pairRunner(h, colleague)
      expect((await colleagueRunner.request('POST', url, signedCompletion(colleagueRunner, task.id, lease, RESULT))).statusCode).toBe(404)
      expect((await owner.post(url, signedCompletion(runner, task.id, lease, RESULT))).json().code).toBe('runner_required')
      expect((await stranger.post(url, signedCompletion(runner, task.id, lease, RESULT))).statusCode).toBe(404)
      // A nonce is good for one completion: the first task's nonce on a second task is refused.
      const first = signedCompletion(runner, task.id, lease, RESULT)
      expect((await runner.request('POST', url, first)).statusCode).toBe(200)
      const { task: next } = await queuedTask()
      const taken = await takeTask(runner, next.id)
      const replayed = await runner.request('POST', `/v1/local-runner/tasks/${next.id}/complete`, signedCompletion(runner, next.id, taken.lease, RESULT, { nonce: first.nonce }))
      expect(replayed.statusCode).toBe(409)
      expect(replayed.json().code).toBe('nonce_reused')
      expect((await runner.request('POST', `/v1/local-runner/tasks/${next.id}/complete`, signedCompletion(runner, next.id, taken.lease, RESULT))).statusCode).toBe(200)
    })

    it('completes exactly once when the same completion arrives twice at once', async () => {
      const runner = await pairRunner(h, owner)
      const { object, task } = await queuedTask()
      const { lease } = await takeTask(runner, task.id)
      const body = signedCompletion(runner, task.id, lease, RESULT)
      const answers = await Promise.all([1, 2, 3].map(() => runner.request('POST', `/v1/local-runner/tasks/${task.id}/complete`, body)))
      expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200])
      expect((await owner.get(`/v1/workobjects/${object.id}/comments`)).json()).toHaveLength(1)
    })
  })
})
