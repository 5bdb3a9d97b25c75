// Capture survives a dropped network: the browser goes offline in the middle of a recording and
// comes back; every chunk reaches the server exactly once (the durable queue retries with the
// same X-Service-Chunk-ID), the live transcript continues after the reconnect, and the stored
// transcript is whole.
import { expect, test } from '@playwright/test'
import { databaseKinds } from '../databases.ts'
import { callJson } from '../e2e/server.ts'
import { wordErrorRate } from '../speech.ts'
import { serveWithMail, workspaceContext } from './helpers.ts'
import { MEETING } from './meeting.ts'

for (const kind of databaseKinds) {
  test.describe(`capture offline and back [${kind}]`, () => {
    const served = serveWithMail(kind, { STT_ENGINE: 'pocketsphinx', JOB_POLL_INTERVAL_MS: '100' })

    test('every chunk arrives exactly once and the transcript is whole', async ({ browser }) => {
      const { server } = served
      const { context, cookie } = await workspaceContext(browser, served, 'offline')
      const page = await context.newPage()
      const sent = new Set<string>()
      page.on('request', (request) => {
        const chunkId = request.headers()['x-service-chunk-id']
        if (chunkId) sent.add(chunkId)
      })

      await page.goto(`${server.baseUrl}/record`)
      await page.getByLabel('Title (optional)').fill('Offline meeting')
      await page.getByRole('button', { name: 'Start recording' }).click()
      const status = page.getByTestId('chunk-status')
      await expect.poll(async () => Number(await status.getAttribute('data-recorded')), { timeout: 20_000 }).toBeGreaterThanOrEqual(4)

      await context.setOffline(true)
      await expect(page.getByText('Offline: chunks are kept in this browser')).toBeVisible({ timeout: 10_000 })
      await expect.poll(async () => Number(await status.getAttribute('data-pending')), { timeout: 10_000 }).toBeGreaterThanOrEqual(3)
      await page.waitForTimeout(2_000)
      await context.setOffline(false)
      await expect.poll(async () => Number(await status.getAttribute('data-pending')), { timeout: 30_000 }).toBe(0)

      // The live transcript picks up again after the socket reconnects with afterSeq: at least one
      // final segment per turn (a turn of several sentences becomes one segment per sentence).
      const live = page.getByTestId('transcript')
      await expect.poll(() => live.locator('li[data-status=final]').count(), { timeout: 90_000 }).toBeGreaterThanOrEqual(MEETING.length)
      await page.getByRole('button', { name: 'End the meeting' }).click()
      await expect(page).toHaveURL(/\/sessions\/ses_/, { timeout: 30_000 })
      const sessionId = page.url().split('/sessions/')[1]!
      await expect(page.getByTestId('session-state')).toHaveAttribute('data-state', 'ready', { timeout: 120_000 })

      const stored = await callJson(server, 'GET', `/v1/sessions/${sessionId}/chunks?limit=200`, cookie) as { chunks: { chunkId: string; sequence: number }[] }
      const storedIds = stored.chunks.map((chunk) => chunk.chunkId)
      expect(new Set(storedIds).size).toBe(storedIds.length)
      expect(new Set(storedIds)).toEqual(sent)
      const transcript = await callJson(server, 'GET', `/v1/sessions/${sessionId}/transcript?limit=200`, cookie) as { segments: { text: string }[] }
      expect(transcript.segments.length).toBeGreaterThanOrEqual(MEETING.length)
      const wer = wordErrorRate(MEETING.map((turn) => turn.text).join(' '), transcript.segments.map((segment) => segment.text).join(' '))
      expect(wer).toBeLessThanOrEqual(0.3)
      await context.close()
    })
  })
}
