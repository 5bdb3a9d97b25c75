// The runner's files under its config directory: the member's runner.json (what may run), the
// signing key and credentials (0600), and the task state that survives a restart. Every write is
// atomic (temporary file, fsync, rename), so a crash leaves the old or the new content, never half.
import { randomUUID } from 'node:crypto'
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs'
import { homedir } from 'node:os'
import path from 'node:path'

export const RUNNER_KINDS = ['runner-a', 'runner-b'] as const
export type RunnerKind = (typeof RUNNER_KINDS)[number]

export type KindConfig = {
  /** argv of the command: no shell unless the member writes one (["sh", "-c", "…"]) */
  command: string[]
  timeoutSeconds: number
  maxOutputBytes: number
  /** comment (default): the output becomes a comment; proposal: new content for the work object */
  resultAs: 'comment' | 'proposal'
  /** extra environment variables for the command */
  env: Record<string, string>
}

export type RunnerConfig = {
  server?: string
  displayName?: string
  leaseSeconds: number
  runners: Partial<Record<RunnerKind, KindConfig>>
}

export type Credentials = { server: string; runnerId: string; runnerToken: string; installationId: string }

export class CliError extends Error {}

export function configDir(explicit: string | undefined): string {
  if (explicit) return path.resolve(explicit)
  if (process.env.CONFER_RUNNER_DIR) return path.resolve(process.env.CONFER_RUNNER_DIR)
  return path.join(process.env.XDG_CONFIG_HOME || path.join(homedir(), '.config'), 'confer-runner')
}

export function ensureDir(dir: string) {
  mkdirSync(dir, { recursive: true, mode: 0o700 })
}

/** Writes a private file atomically with mode 0600. */
export function writePrivate(file: string, content: string) {
  ensureDir(path.dirname(file))
  const temporary = `${file}.${process.pid}.tmp`
  const fd = openSync(temporary, 'w', 0o600)
  try {
    writeSync(fd, content)
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
  renameSync(temporary, file)
}

export function readJson<T>(file: string): T | undefined {
  if (!existsSync(file)) return undefined
  return JSON.parse(readFileSync(file, 'utf8')) as T
}

export const writeJson = (file: string, value: unknown) => writePrivate(file, `${JSON.stringify(value, null, 2)}\n`)
export const removeFile = (file: string) => rmSync(file, { force: true })

export const paths = (dir: string) => ({
  config: path.join(dir, 'runner.json'),
  key: path.join(dir, 'signing-key.pem'),
  credentials: path.join(dir, 'credentials.json'),
  installation: path.join(dir, 'installation-id'),
  current: path.join(dir, 'current-task.json'),
  results: path.join(dir, 'results'),
})

export function installationId(dir: string): string {
  const file = paths(dir).installation
  if (existsSync(file)) return readFileSync(file, 'utf8').trim()
  const id = randomUUID()
  writePrivate(file, `${id}\n`)
  return id
}

/** The member's runner.json, checked: only the kinds it configures can ever run. */
export function loadConfig(dir: string): RunnerConfig {
  const file = paths(dir).config
  const raw = readJson<Record<string, unknown>>(file)
  if (!raw) throw new CliError(`no ${file}: write it first (see docs/runner.md), naming the command of each runner kind this machine runs`)
  const runners: RunnerConfig['runners'] = {}
  const given = (raw.runners ?? {}) as Record<string, Record<string, unknown>>
  for (const [kind, entry] of Object.entries(given)) {
    if (!(RUNNER_KINDS as readonly string[]).includes(kind)) throw new CliError(`${file}: unknown runner kind "${kind}" (runner-a or runner-b)`)
    const command = entry.command
    if (!Array.isArray(command) || command.length === 0 || !command.every((part) => typeof part === 'string')) {
      throw new CliError(`${file}: runners.${kind}.command must be a non-empty array of strings`)
    }
    const number = (name: string, fallback: number, max: number) => {
      const value = entry[name] ?? fallback
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > max) throw new CliError(`${file}: runners.${kind}.${name} must be an integer from 1 to ${max}`)
      return value
    }
    const resultAs = entry.resultAs ?? 'comment'
    if (resultAs !== 'comment' && resultAs !== 'proposal') throw new CliError(`${file}: runners.${kind}.resultAs must be "comment" or "proposal"`)
    runners[kind as RunnerKind] = {
      command: command as string[], timeoutSeconds: number('timeoutSeconds', 600, 86_400), maxOutputBytes: number('maxOutputBytes', 65_536, 65_536),
      resultAs, env: (entry.env ?? {}) as Record<string, string>,
    }
  }
  if (Object.keys(runners).length === 0) throw new CliError(`${file}: configure at least one runner kind under "runners"`)
  const leaseSeconds = raw.leaseSeconds ?? 120
  if (typeof leaseSeconds !== 'number' || !Number.isInteger(leaseSeconds) || leaseSeconds < 2 || leaseSeconds > 600) throw new CliError(`${file}: leaseSeconds must be an integer from 2 to 600`)
  return {
    ...(typeof raw.server === 'string' ? { server: raw.server } : {}),
    ...(typeof raw.displayName === 'string' ? { displayName: raw.displayName } : {}),
    leaseSeconds, runners,
  }
}
