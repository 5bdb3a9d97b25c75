// The runner's command line refuses a mistyped command plainly: usage and status 2, no stack trace;
// stopping it while it waits for work is a stop, not "server unreachable".
import { mkdtempSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { runnerMain } from './main.ts'

describe('confer runner arguments', () => {
  afterEach(() => { vi.restoreAllMocks() })

  it('an option without its value or an unknown option answers the usage with status 2', async () => {
    const written: string[] = []
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => { written.push(String(chunk)); return true })
    expect(await runnerMain(['pair', '--server', 'http://localhost:8080', '--grant'])).toBe(2)
    expect(written.join('')).toContain("confer runner: Option '--grant <value>' argument missing")
    expect(written.join('')).toContain('usage:')
    written.length = 0
    expect(await runnerMain(['pair', '--token', 'x'])).toBe(2)
    expect(written.join('')).toMatch(/confer runner: Unknown option '--token'/)
  })

  it('a stop while it waits for work says it stopped, not that the server is unreachable', async () => {
    // A server that holds the long poll open, as a real one does while there is no task.
    const server = createServer(() => {})
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    const dir = mkdtempSync(path.join(os.tmpdir(), 'runner-stop-'))
    writeFileSync(path.join(dir, 'runner.json'), JSON.stringify({ server: url, runners: { 'runner-a': { command: ['true'] } } }))
    writeFileSync(path.join(dir, 'credentials.json'), JSON.stringify({ server: url, runnerId: 'run_test', runnerToken: 'crt_test', installationId: 'inst' }))
    const lines: string[] = []
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => { lines.push(String(chunk)); return true })
    const running = runnerMain(['start', '--dir', dir])
    await vi.waitFor(() => expect(lines.join('')).toContain('runner run_test started'))
    await new Promise((resolve) => setTimeout(resolve, 200))
    process.emit('SIGTERM')
    expect(await running).toBe(0)
    server.closeAllConnections()
    server.close()
    expect(lines.join('')).toContain('runner stopped')
    expect(lines.join('')).not.toContain('unreachable')
  })
})
