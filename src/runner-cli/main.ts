// `confer runner`: the same binary as a local runner on a member's machine. A client of the HTTP
// API only (it imports nothing of the server). `pair` registers this machine with a one-time grant;
// `start` takes tasks (long poll), runs the command runner.json configures for the task's kind,
// streams progress (which renews the lease) and completes with a signed result.
//
// Restart safety: before the command runs, the lease is written to current-task.json; once it has
// run, the result is written to results/<taskId>.json and the signed completion to
// current-task.json before it is sent. A restarted runner sends a pending completion again (the
// server answers a repeated completion with its stored result), re-runs a task it still holds,
// and re-signs a kept result when the server offers the same task again after its lease lapsed.
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { call, ServerUnreachable, type Answer } from './client.ts'
import { runConfigured, type TaskInput } from './execute.ts'
import { CliError, configDir, installationId, loadConfig, paths, readJson, removeFile, writeJson, type Credentials, type KindConfig, type RunnerConfig, type RunnerKind } from './files.ts'
import { loadOrCreateKey, publicKeyPem, signCompletion, type Completion } from './signing.ts'

const USAGE = `usage:
  confer runner pair --grant <registrationGrant> [--server <url>] [--name <displayName>] [--dir <configDir>]
  confer runner start [--dir <configDir>]
  confer runner status [--dir <configDir>]
The config directory (default $CONFER_RUNNER_DIR or ~/.config/confer-runner) holds runner.json,
which you write: the command of each runner kind this machine runs. Nothing else runs.`

type Lease = { leaseId: string; attempt: number; expiresAt: string }
type Taken = { task: { id: string; runnerKind: RunnerKind; instructions?: string }; lease: Lease; workObject?: TaskInput['workObject'] }
type Current = { taskId: string; runnerKind: RunnerKind; lease: Lease; phase: 'running' | 'completing'; input: TaskInput; completion?: Completion }

const log = (message: string) => process.stdout.write(`${new Date().toISOString()} ${message}\n`)
const sleep = (ms: number, signal?: AbortSignal) => new Promise<void>((resolve) => {
  const timer = setTimeout(resolve, ms)
  signal?.addEventListener('abort', () => { clearTimeout(timer); resolve() }, { once: true })
})

export async function runnerMain(argv: string[]): Promise<number> {
  const [command, ...rest] = argv
  let values: { dir?: string; server?: string; grant?: string; name?: string }
  try {
    ({ values } = parseArgs({
      args: rest, strict: true, allowPositionals: false,
      options: { dir: { type: 'string' }, server: { type: 'string' }, grant: { type: 'string' }, name: { type: 'string' } },
    }))
  } catch (error) {
    // An option without its value, or one it does not know: say so with the usage, not a stack trace.
    process.stderr.write(`confer runner: ${(error as Error).message}\n${USAGE}\n`)
    return 2
  }
  const dir = configDir(values.dir)
  try {
    if (command === 'pair') return await pair(dir, values)
    if (command === 'start') return await start(dir)
    if (command === 'status') return status(dir)
    process.stderr.write(`${USAGE}\n`)
    return 2
  } catch (error) {
    if (error instanceof CliError || error instanceof ServerUnreachable) {
      process.stderr.write(`confer runner: ${error.message}\n`)
      return 1
    }
    throw error
  }
}

async function pair(dir: string, options: { server?: string; grant?: string; name?: string }) {
  const config = loadConfig(dir)
  const server = options.server ?? config.server
  if (!options.grant) throw new CliError('--grant is required: create one in Confer on the Runners page ("Pair a runner"), or with POST /v1/local-runner/registration-grants')
  if (!server) throw new CliError('--server is required (or "server" in runner.json)')
  const files = paths(dir)
  const key = loadOrCreateKey(files.key)
  const installation = installationId(dir)
  const answer = await call(server, 'POST', '/v1/local-runner/registrations', options.grant, {
    installationId: installation,
    displayName: options.name ?? config.displayName ?? os.hostname(),
    supportedRunners: Object.keys(config.runners),
    capabilities: [{ name: 'command', platform: process.platform }],
    publicSigningKey: publicKeyPem(key),
  })
  if (answer.status !== 200) throw new CliError(`pairing refused: ${answer.status} ${answer.body.code ?? ''} ${answer.body.detail ?? ''}`)
  const credentials: Credentials = { server, runnerId: answer.body.runner.id, runnerToken: answer.body.runnerToken, installationId: installation }
  writeJson(files.credentials, credentials)
  log(`paired as ${credentials.runnerId} (${Object.keys(config.runners).join(', ')}) with ${server}`)
  return 0
}

function status(dir: string) {
  const files = paths(dir)
  const credentials = readJson<Credentials>(files.credentials)
  const current = readJson<Current>(files.current)
  process.stdout.write(`${JSON.stringify({ paired: Boolean(credentials), runnerId: credentials?.runnerId, server: credentials?.server, currentTask: current?.taskId, phase: current?.phase }, null, 2)}\n`)
  return 0
}

class Revoked extends Error {}

async function start(dir: string) {
  const config = loadConfig(dir)
  const files = paths(dir)
  const credentials = readJson<Credentials>(files.credentials)
  if (!credentials) throw new CliError(`not paired: run \`confer runner pair --grant …\` first (${files.credentials})`)
  const key = loadOrCreateKey(files.key)
  const stopping = new AbortController()
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => stopping.abort())
  const runner = { config, files, credentials, key, signal: stopping.signal }
  log(`runner ${credentials.runnerId} started (${Object.keys(config.runners).join(', ')})`)
  try {
    await recover(runner)
    while (!stopping.signal.aborted) {
      const answer = await retrying(runner, () => api(runner, 'POST', '/v1/local-runner/tasks/take', { waitSeconds: 20, leaseSeconds: config.leaseSeconds }, 40_000, stopping.signal))
      if (!answer) break
      if (answer.status !== 200) {
        log(`take refused: ${answer.status} ${answer.body.code ?? ''}`)
        await sleep(5000, stopping.signal)
        continue
      }
      if (!answer.body.task) continue
      await handle(runner, answer.body as Taken)
    }
  } catch (error) {
    if (error instanceof Revoked) {
      process.stderr.write(`confer runner: ${error.message}\n`)
      return 3
    }
    throw error
  }
  log('runner stopped')
  return 0
}

type Runner = { config: RunnerConfig; files: ReturnType<typeof paths>; credentials: Credentials; key: ReturnType<typeof loadOrCreateKey>; signal: AbortSignal }

async function api(runner: Runner, method: string, route: string, body?: unknown, timeoutMs?: number, signal?: AbortSignal): Promise<Answer> {
  const answer = await call(runner.credentials.server, method, route, runner.credentials.runnerToken, body, timeoutMs, signal)
  if (answer.status === 401) throw new Revoked(`the server refused this runner's token (${answer.body.code ?? 401}): it was revoked; pair again`)
  return answer
}

/** Retries a call while the server is unreachable; undefined when the runner is stopping. */
async function retrying(runner: Runner, attempt: () => Promise<Answer>): Promise<Answer | undefined> {
  for (let delay = 500; !runner.signal.aborted; delay = Math.min(delay * 2, 10_000)) {
    try {
      return await attempt()
    } catch (error) {
      if (!(error instanceof ServerUnreachable)) throw error
      // Stopping (Ctrl-C, SIGTERM) aborts the long poll in flight: that is no unreachable server.
      if (runner.signal.aborted) break
      log(`server unreachable, retrying: ${error.message}`)
      await sleep(delay, runner.signal)
    }
  }
  return undefined
}

const resultFile = (runner: Runner, taskId: string) => path.join(runner.files.results, `${taskId}.json`)

/** After a restart: finish what the last run left. */
async function recover(runner: Runner) {
  const current = readJson<Current>(runner.files.current)
  if (!current) return
  if (current.phase === 'completing' && current.completion) {
    log(`resending the completion of ${current.taskId}`)
    await sendCompletion(runner, current, current.completion)
    return
  }
  const probe = await retrying(runner, () => api(runner, 'POST', `/v1/local-runner/tasks/${current.taskId}/progress`, { leaseId: current.lease.leaseId, message: 'runner restarted; running the task again' }))
  if (probe?.status === 200) {
    log(`still holding ${current.taskId}: running it again`)
    await execute(runner, { ...current, lease: probe.body.lease as Lease })
    return
  }
  log(`lost the lease of ${current.taskId} while stopped; it is back in the queue`)
  removeFile(runner.files.current)
}

async function handle(runner: Runner, taken: Taken) {
  const kind = runner.config.runners[taken.task.runnerKind]
  const input: TaskInput = {
    taskId: taken.task.id, runnerKind: taken.task.runnerKind,
    ...(taken.task.instructions ? { instructions: taken.task.instructions } : {}),
    ...(taken.workObject ? { workObject: taken.workObject } : {}),
  }
  const current: Current = { taskId: taken.task.id, runnerKind: taken.task.runnerKind, lease: taken.lease, phase: 'running', input }
  log(`took ${current.taskId} (${current.runnerKind}, attempt ${taken.lease.attempt})`)
  if (!kind) {
    // The server offers only the kinds this runner registered; a kind removed from runner.json since stays unrun.
    const result = { outcome: 'failed' as const, output: `This runner no longer has a command for ${current.runnerKind}.` }
    writeJson(resultFile(runner, current.taskId), result)
  }
  writeJson(runner.files.current, current)
  await execute(runner, current)
}

/** Runs the command (unless a kept result exists), then signs and sends the completion. */
async function execute(runner: Runner, current: Current) {
  let result = readJson<Record<string, unknown>>(resultFile(runner, current.taskId))
  if (result) log(`${current.taskId}: using the result kept from an earlier run`)
  else {
    const produced = await runWithProgress(runner, runner.config.runners[current.runnerKind]!, current)
    if (!produced) return
    result = produced
    writeJson(resultFile(runner, current.taskId), result)
  }
  const completion = signCompletion(runner.key, current.taskId, current.lease, result)
  const completing: Current = { ...current, phase: 'completing', completion }
  writeJson(runner.files.current, completing)
  await sendCompletion(runner, completing, completion)
}

async function runWithProgress(runner: Runner, kind: KindConfig, current: Current): Promise<Record<string, unknown> | undefined> {
  const lost = new AbortController()
  const stop = () => lost.abort()
  runner.signal.addEventListener('abort', stop, { once: true })
  let lastLine = 'started'
  let lease = current.lease
  const heartbeat = (async () => {
    while (!lost.signal.aborted) {
      const untilExpiry = Date.parse(lease.expiresAt) - Date.now()
      await sleep(Math.max(500, Math.min(10_000, untilExpiry / 3)), lost.signal)
      if (lost.signal.aborted) return
      try {
        const answer = await api(runner, 'POST', `/v1/local-runner/tasks/${current.taskId}/progress`, { leaseId: lease.leaseId, message: lastLine.slice(0, 500) })
        if (answer.status === 200) lease = answer.body.lease as Lease
        else if (answer.status === 409 || answer.status === 404) {
          log(`${current.taskId}: lease lost (${answer.body.code}); stopping the command`)
          lost.abort()
        }
      } catch (error) {
        if (error instanceof Revoked) lost.abort()
        // unreachable server: try again at the next beat; the lease may still hold
      }
    }
  })()
  const outcome = await runConfigured(kind, current.input, { onOutput: (line) => { lastLine = line }, signal: lost.signal })
  const aborted = lost.signal.aborted
  lost.abort()
  await heartbeat
  runner.signal.removeEventListener('abort', stop)
  if (aborted) {
    if (!runner.signal.aborted) removeFile(runner.files.current)
    return undefined
  }
  log(`${current.taskId}: command ${outcome.outcome} (exit ${outcome.exitCode ?? 'none'})`)
  const result: Record<string, unknown> = { outcome: outcome.outcome, output: outcome.output.slice(0, 65_536) }
  if (outcome.exitCode !== undefined) result.exitCode = outcome.exitCode
  if (kind.resultAs === 'proposal' && outcome.outcome === 'succeeded') result.proposal = proposalFrom(outcome.output, current.input)
  return result
}

/** A proposal from the command's output: JSON {title, summary}, or the output as the new summary. */
function proposalFrom(output: string, input: TaskInput) {
  try {
    const parsed = JSON.parse(output) as { title?: unknown; summary?: unknown }
    if (typeof parsed.title === 'string' && parsed.title.trim()) {
      return { title: parsed.title.slice(0, 500), ...(typeof parsed.summary === 'string' ? { summary: parsed.summary.slice(0, 20_000) } : {}) }
    }
  } catch {
    // not JSON: the output is the summary
  }
  return { title: (input.workObject?.title ?? 'Runner result').slice(0, 500), summary: output.trim().slice(0, 20_000) }
}

async function sendCompletion(runner: Runner, current: Current, completion: Completion) {
  const answer = await retrying(runner, () => api(runner, 'POST', `/v1/local-runner/tasks/${current.taskId}/complete`, completion))
  if (!answer) return
  const code = answer.body.code as string | undefined
  if (answer.status === 200 || code === 'task_completed') {
    log(`completed ${current.taskId}${answer.status === 200 ? ` (${answer.body.landedAs})` : ' (already completed)'}`)
    removeFile(resultFile(runner, current.taskId))
    removeFile(runner.files.current)
    return
  }
  // Lease lapsed or clock off: keep the result; when the task is offered again it is signed anew, not re-run.
  log(`completion of ${current.taskId} refused: ${answer.status} ${code ?? ''}; the result is kept for the next lease`)
  removeFile(runner.files.current)
  if (answer.status >= 400 && answer.status < 500 && !['lease_expired', 'lease_lost', 'clock_skew', 'nonce_reused'].includes(code ?? '')) {
    removeFile(resultFile(runner, current.taskId))
  }
}
