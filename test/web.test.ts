// Runs the browser tests (test/web/*.spec.ts, Playwright + Debian's Chromium) as part of `npm test`:
// one vitest case per Playwright run, failing with Playwright's report. Skipped where Chromium or
// the speech tools (flite, sox, pocketsphinx, ffmpeg) are missing; .ci/run installs them.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import path from 'node:path'
import { expect, it } from 'vitest'
import { hasFfmpeg, hasFlite, hasPocketsphinx } from './speech.ts'

const ROOT = path.resolve(import.meta.dirname, '..')
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const hasSox = !spawnSync('sox', ['--version'], { stdio: 'ignore' }).error
const ready = existsSync(CHROMIUM) && hasFlite && hasPocketsphinx && hasFfmpeg && hasSox

it.skipIf(!ready)('the web client in a browser (Playwright: test/web)', async () => {
  const cli = path.join(ROOT, 'node_modules/@playwright/test/cli.js')
  const child = spawn(process.execPath, [cli, 'test', '--reporter=line'], {
    cwd: ROOT, env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1', FORCE_COLOR: '0' }, stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => { output += chunk.toString() })
  child.stderr.on('data', (chunk: Buffer) => { output += chunk.toString() })
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
  console.log(output.split('\n').filter((line) => /passed|failed|flaky|skipped/.test(line)).join('\n'))
  expect(code, output).toBe(0)
}, 600_000)
