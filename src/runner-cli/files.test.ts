// The runner's config: only what the member wrote may run; private files are 0600.
import { mkdtempSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { CliError, loadConfig, writeJson } from './files.ts'
import { loadOrCreateKey } from './signing.ts'

const dirWith = (config: unknown) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'confer-runner-config-'))
  if (config !== undefined) writeFileSync(path.join(dir, 'runner.json'), JSON.stringify(config))
  return dir
}

describe('runner config', () => {
  it('takes the configured kinds with their limits and defaults', () => {
    const config = loadConfig(dirWith({ runners: { 'runner-a': { command: ['make', 'draft'], timeoutSeconds: 30 } } }))
    expect(config.runners).toEqual({ 'runner-a': { command: ['make', 'draft'], timeoutSeconds: 30, maxOutputBytes: 65_536, resultAs: 'comment', env: {} } })
    expect(config.leaseSeconds).toBe(120)
  })

  it('refuses a missing file, no kinds, unknown kinds, and commands that are not argv arrays', () => {
    expect(() => loadConfig(dirWith(undefined))).toThrow(CliError)
    expect(() => loadConfig(dirWith({ runners: {} }))).toThrow(/at least one runner kind/)
    expect(() => loadConfig(dirWith({ runners: { 'runner-c': { command: ['x'] } } }))).toThrow(/unknown runner kind/)
    expect(() => loadConfig(dirWith({ runners: { 'runner-a': { command: 'rm -rf /' } } }))).toThrow(/non-empty array/)
    expect(() => loadConfig(dirWith({ runners: { 'runner-a': { command: ['x'], maxOutputBytes: 10_000_000 } } }))).toThrow(/maxOutputBytes/)
  })

  it('keeps the signing key and state private (0600) and the same key across starts', () => {
    const dir = dirWith(undefined)
    const key = path.join(dir, 'signing-key.pem')
    const first = loadOrCreateKey(key)
    expect(statSync(key).mode & 0o777).toBe(0o600)
    expect(loadOrCreateKey(key).export({ format: 'pem', type: 'pkcs8' })).toEqual(first.export({ format: 'pem', type: 'pkcs8' }))
    writeJson(path.join(dir, 'state.json'), { a: 1 })
    expect(statSync(path.join(dir, 'state.json')).mode & 0o777).toBe(0o600)
  })
})

describe('the runner client', () => {
  it('imports nothing of the server: only Node, canonicalize and its own files', async () => {
    const { readdirSync, readFileSync } = await import('node:fs')
    const dir = path.dirname(new URL(import.meta.url).pathname)
    for (const file of readdirSync(dir).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))) {
      const specifiers = [...readFileSync(path.join(dir, file), 'utf8').matchAll(/from '([^']+)'|import\('([^']+)'\)/g)].map((match) => match[1] ?? match[2]!)
      const foreign = specifiers.filter((specifier) => !specifier.startsWith('node:') && !/^\.\/[\w-]+\.ts$/.test(specifier) && !['canonicalize'].includes(specifier))
      expect(foreign, file).toEqual([])
    }
  })
})
