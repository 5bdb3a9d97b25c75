// The runner's command line refuses a mistyped command plainly: usage and status 2, no stack trace.
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
})
