import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    // CI also writes a JSON report: .ci/summary.mjs prints the closing "N passed, N failed" line from it.
    reporters: process.env.CI ? ['default', 'json'] : ['default'],
    outputFile: { json: '.ci/test-results.json' },
  },
})
