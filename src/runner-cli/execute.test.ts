// The runner's command execution: a fresh working directory with the task, a small environment,
// and the time and output limits the member configured.
import { existsSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { runConfigured } from './execute.ts'
import type { KindConfig } from './files.ts'

const input = { taskId: 'tsk_1', runnerKind: 'runner-a', workObject: { id: 'wo_1', kind: 'action', title: 'Draft it' } }
const config = (command: string, extra: Partial<KindConfig> = {}): KindConfig =>
  ({ command: ['sh', '-c', command], timeoutSeconds: 10, maxOutputBytes: 65_536, resultAs: 'comment', env: {}, ...extra })
const run = (kind: KindConfig) => {
  const lines: string[] = []
  return runConfigured(kind, input, { onOutput: (line) => lines.push(line), signal: new AbortController().signal }).then((outcome) => ({ outcome, lines }))
}

describe('runConfigured', () => {
  it('runs in a fresh directory holding task.json, with the task on stdin and a small environment', async () => {
    process.env.CONFER_TEST_SECRET = 'must not leak'
    const { outcome, lines } = await run(config('pwd; cat task.json | head -c 200; echo; cat; echo; echo "id=$CONFER_TASK_ID kind=$CONFER_RUNNER_KIND mode=$MODE secret=${CONFER_TEST_SECRET:-none}"', { env: { MODE: 'draft' } }))
    delete process.env.CONFER_TEST_SECRET
    expect(outcome).toMatchObject({ outcome: 'succeeded', exitCode: 0, timedOut: false })
    const directory = lines[0]!
    expect(directory).toMatch(/confer-task-/)
    expect(existsSync(directory)).toBe(false)
    expect(outcome.output).toContain('"title": "Draft it"')
    expect(outcome.output).toContain('"taskId":"tsk_1"')
    expect(outcome.output).toContain('id=tsk_1 kind=runner-a mode=draft secret=none')
  })

  it('reports a failing command as failed with its exit code', async () => {
    const { outcome } = await run(config('echo nope >&2; exit 7'))
    expect(outcome).toMatchObject({ outcome: 'failed', exitCode: 7 })
    expect(outcome.output).toContain('nope')
  })

  it('kills the command and its children at the time limit', async () => {
    const started = Date.now()
    const { outcome } = await run(config('sleep 30 & sleep 30; echo never', { timeoutSeconds: 1 }))
    expect(Date.now() - started).toBeLessThan(5000)
    expect(outcome).toMatchObject({ outcome: 'failed', timedOut: true })
    expect(outcome.output).toContain('time limit')
  })

  it('keeps at most maxOutputBytes of output and says so', async () => {
    const { outcome } = await run(config('head -c 5000 /dev/zero | tr "\\\\0" x', { maxOutputBytes: 100 }))
    expect(outcome.output.startsWith('x'.repeat(100))).toBe(true)
    expect(outcome.output).not.toContain('x'.repeat(101))
    expect(outcome.output).toContain('[output truncated at 100 bytes]')
  })

  it('reports a command that cannot start', async () => {
    const { outcome } = await run({ ...config(''), command: ['/nonexistent/program'] })
    expect(outcome.outcome).toBe('failed')
    expect(outcome.output).toContain('could not start')
  })
})
