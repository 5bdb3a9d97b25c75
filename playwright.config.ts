// Browser tests of the web client (test/web/*.spec.ts) against the real server process, in
// Debian's Chromium (no browser download) with a fake microphone that plays a synthesized meeting.
// `npm test` runs them through test/web.test.ts; alone: `npm exec -- playwright test`.
import path from 'node:path'
import { defineConfig } from '@playwright/test'

export const ARTIFACTS = path.resolve(import.meta.dirname, 'test/web/.artifacts')
export const MEETING_WAV = path.join(ARTIFACTS, 'meeting-48k.wav')

export default defineConfig({
  testDir: 'test/web',
  testMatch: '*.spec.ts',
  globalSetup: './test/web/global-setup.ts',
  outputDir: path.join(ARTIFACTS, 'results'),
  workers: 1,
  // The specs run beside the whole server suite (vitest runs test/web.test.ts with the other files), so on two
  // cores a spec's own time budget is sometimes spent waiting for the machine: one retry, and a spec that only
  // passes on it is reported as flaky in the output (three such flakes seen on 2026-11-25, each passing alone).
  retries: 1,
  fullyParallel: false,
  timeout: 240_000,
  expect: { timeout: 15_000 },
  reporter: process.env.CI ? 'line' : 'list',
  use: {
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--use-fake-ui-for-media-stream',
        '--use-fake-device-for-media-stream',
        `--use-file-for-fake-audio-capture=${MEETING_WAV}%noloop`,
        '--autoplay-policy=no-user-gesture-required',
      ],
    },
    locale: 'en-US',
    trace: 'off',
  },
})
