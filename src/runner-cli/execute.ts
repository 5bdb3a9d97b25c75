// Runs the command the member configured for a runner kind: a fresh working directory (removed
// afterwards), a small environment, the task on stdin and in task.json, a time limit (the whole
// process group is killed) and an output limit (the rest is dropped and the result says so).
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { KindConfig } from './files.ts'

export type TaskInput = { taskId: string; runnerKind: string; instructions?: string; workObject?: { id: string; kind: string; title: string; summary?: string; nextStep?: string } }
export type Outcome = { outcome: 'succeeded' | 'failed'; output: string; exitCode?: number; timedOut: boolean }

const PASSED_ENV = ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TZ', 'TMPDIR']

export function runConfigured(config: KindConfig, input: TaskInput, hooks: { onOutput(line: string): void; signal: AbortSignal }): Promise<Outcome> {
  const workDir = mkdtempSync(path.join(tmpdir(), 'confer-task-'))
  const taskFile = path.join(workDir, 'task.json')
  writeFileSync(taskFile, JSON.stringify(input, null, 2))
  const env: Record<string, string> = {}
  for (const name of PASSED_ENV) if (process.env[name] !== undefined) env[name] = process.env[name]!
  Object.assign(env, config.env, { CONFER_TASK_ID: input.taskId, CONFER_RUNNER_KIND: input.runnerKind, CONFER_TASK_FILE: taskFile })
  const [program, ...args] = config.command
  return new Promise<Outcome>((resolve) => {
    const child = spawn(program!, args, { cwd: workDir, env, stdio: ['pipe', 'pipe', 'pipe'], detached: true })
    const chunks: Buffer[] = []
    let size = 0
    let truncated = false
    let timedOut = false
    let pending = ''
    const keep = (chunk: Buffer) => {
      const room = config.maxOutputBytes - size
      if (room <= 0) { truncated = true; return }
      const part = chunk.length > room ? chunk.subarray(0, room) : chunk
      if (part.length < chunk.length) truncated = true
      chunks.push(part)
      size += part.length
      pending += part.toString()
      const lines = pending.split('\n')
      pending = lines.pop() ?? ''
      for (const line of lines) if (line.trim()) hooks.onOutput(line)
    }
    child.stdout.on('data', keep)
    child.stderr.on('data', keep)
    child.stdin.on('error', () => {})
    child.stdin.end(JSON.stringify(input))
    const killGroup = () => {
      try {
        process.kill(-child.pid!, 'SIGKILL')
      } catch {
        child.kill('SIGKILL')
      }
    }
    const timer = setTimeout(() => { timedOut = true; killGroup() }, config.timeoutSeconds * 1000)
    hooks.signal.addEventListener('abort', killGroup)
    let finished = false
    const finish = (exitCode: number | undefined) => {
      if (finished) return
      finished = true
      clearTimeout(timer)
      hooks.signal.removeEventListener('abort', killGroup)
      rmSync(workDir, { recursive: true, force: true })
      let output = Buffer.concat(chunks).toString('utf8')
      if (truncated) output += `\n[output truncated at ${config.maxOutputBytes} bytes]`
      if (timedOut) output += `\n[stopped after the ${config.timeoutSeconds} s time limit]`
      resolve({ outcome: exitCode === 0 && !timedOut ? 'succeeded' : 'failed', output, ...(exitCode !== undefined ? { exitCode } : {}), timedOut })
    }
    child.once('error', (error) => {
      chunks.push(Buffer.from(`could not start ${program}: ${error.message}`))
      finish(undefined)
    })
    child.once('close', (code) => finish(code ?? undefined))
  })
}
