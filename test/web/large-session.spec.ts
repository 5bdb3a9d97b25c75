// A large session: 1,000 transcript segments and 100 work objects, both lists virtualized (all
// counted, only the rows near the view in the page, the last ones reached by scrolling), the
// transcript search, a linked segment scrolled to. Its time to interactive is a benchmark
// (`BENCH_ONLY=web npm run bench`), not a timed test.
import { expect, test } from '@playwright/test'
import { callJson } from '../e2e/server.ts'
import { connectSocket } from '../ws-client.ts'
import { expectAccessible, serveWithMail, uniqueEmail, workspaceContext } from './helpers.ts'

const SEGMENTS = 1000
const WORK_OBJECTS = 100

// Its lines say nothing the extraction engine reads as work ("Point number N about the quarterly numbers" read as results once the
// outcome detector had learned from more meetings), so the work list holds exactly the objects created below.
test.describe('a large session', () => {
  const served = serveWithMail('sqlite')

  test(`${SEGMENTS} segments and ${WORK_OBJECTS} work objects: virtualized, searchable, scrollable to the end`, async ({ browser }) => {
    const { server } = served
    const { context, cookie } = await workspaceContext(browser, served, 'large')
    const session = await callJson(server, 'POST', '/v1/sessions', cookie, { captureMode: 'microphone', title: 'Quarterly review' })
    const socket = connectSocket(session.websocketURL, { cookie, origin: server.baseUrl })
    await socket.waitFor((message) => message.type === 'hello')
    for (let index = 0; index < SEGMENTS; index += 1) {
      socket.send({ type: 'transcript.segment', data: { id: `seg-${index}`, text: `Line ${index} of the long transcript, read aloud`, startMs: index * 3000, endMs: index * 3000 + 2500, speakerId: `spk_${(index % 3) + 1}` } })
    }
    await expect.poll(() => socket.messages.filter((message) => message.type === 'transcript.final').length, { timeout: 120_000 }).toBeGreaterThanOrEqual(SEGMENTS)
    await socket.close()
    for (let index = 0; index < WORK_OBJECTS; index += 1) {
      await callJson(server, 'POST', `/v1/sessions/${session.id}/workobjects`, cookie, { kind: 'action', title: `Follow-up ${index}` })
    }

    const page = await context.newPage()
    await page.goto(`${server.baseUrl}/sessions/${session.id}`)
    // Both long lists are virtualized: every segment and object counted, only those near the view in the page.
    await expect(page.getByRole('heading', { name: `Work objects (${WORK_OBJECTS})` })).toBeVisible({ timeout: 60_000 })
    const transcript = page.getByTestId('transcript')
    await expect(transcript.locator('li').first()).toHaveAttribute('aria-setsize', String(SEGMENTS), { timeout: 60_000 })
    expect(await transcript.locator('li').count()).toBeLessThan(100)
    expect(await page.getByTestId('work-object').count()).toBeLessThan(40)
    // The last segment and the last object are reached by scrolling.
    await page.getByRole('region', { name: 'Transcript lines' }).evaluate((scroller) => { scroller.scrollTop = scroller.scrollHeight })
    await expect(transcript.getByText('Line 999 of')).toBeVisible()
    await page.evaluate('window.scrollTo(0, document.body.scrollHeight)')
    await expect(page.getByRole('heading', { name: `Follow-up ${WORK_OBJECTS - 1}`, exact: true })).toBeVisible()
    await page.getByLabel('Search the transcript').fill('Line 999 ')
    await expect(page.getByText('1 matching segment', { exact: true })).toBeVisible()
    await expectAccessible(page, 'a large session')
    // A segment opened from search or memory (?segment=) is scrolled to and highlighted.
    let segments: { id: string; text: string }[] = []
    for (let cursor: string | undefined, first = true; first || cursor; first = false) {
      const pageOf = await callJson(server, 'GET', `/v1/sessions/${session.id}/transcript?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, cookie)
      segments = [...segments, ...pageOf.segments]
      cursor = pageOf.nextCursor
    }
    const target = segments.find((segment) => segment.text.startsWith('Line 640 '))!
    await page.goto(`${server.baseUrl}/sessions/${session.id}?segment=${target.id}`)
    const row = page.locator(`[id="segment-${target.id}"]`)
    await expect(row).toHaveClass(/highlighted/, { timeout: 60_000 })
    await expect(row).toBeInViewport()
    // The time to interactive is measured by `npm run bench` (BENCH_ONLY=web), not here.
    await context.close()
  })

  test('fifty proposals from one recording: the proposals list is virtualized too, its last one reached by scrolling', async ({ browser }) => {
    const { server } = served
    const { context, cookie } = await workspaceContext(browser, served, 'proposals')
    const session = await callJson(server, 'POST', '/v1/sessions', cookie, { captureMode: 'microphone', title: 'Supplier invoices' })
    const socket = connectSocket(session.websocketURL, { cookie, origin: server.baseUrl })
    await socket.waitFor((message) => message.type === 'hello')
    const materials = ['copper', 'timber', 'glass', 'paper', 'rubber', 'cotton', 'steel', 'marble', 'granite', 'leather', 'plastic', 'ceramic', 'velvet', 'bamboo', 'canvas', 'linen', 'walnut', 'cedar', 'maple', 'oak', 'pine', 'birch', 'slate', 'quartz', 'nickel', 'zinc', 'tin', 'silver', 'brass', 'bronze', 'chalk', 'clay', 'wool', 'silk', 'denim', 'felt', 'hemp', 'jute', 'cork', 'wax', 'resin', 'tar', 'ink', 'dye', 'salt', 'sugar', 'flour', 'rice', 'tea', 'coffee']
    materials.forEach((material, index) => {
      socket.send({ type: 'transcript.segment', data: { id: `seg-${index}`, text: `I'll email the ${material} supplier about invoice ${4100 + index * 7} by Friday.`, startMs: index * 4000, endMs: index * 4000 + 3500, speakerId: `spk_${(index % 3) + 1}` } })
    })
    await expect.poll(() => socket.messages.filter((message) => message.type === 'transcript.final').length, { timeout: 60_000 }).toBeGreaterThanOrEqual(materials.length)
    await socket.close()
    const page = await context.newPage()
    await page.goto(`${server.baseUrl}/sessions/${session.id}`)
    const heading = page.getByRole('heading', { name: /^Proposals \(\d+\)$/ })
    await expect(heading).toBeVisible({ timeout: 60_000 })
    await expect.poll(async () => Number(/\((\d+)\)/.exec(await heading.textContent() ?? '')?.[1] ?? 0), { timeout: 60_000 }).toBeGreaterThan(40)
    const count = Number(/\((\d+)\)/.exec(await heading.textContent() ?? '')?.[1])
    expect(await page.getByTestId('proposals').getByTestId('work-object').count()).toBeLessThan(count - 10)
    await page.evaluate('window.scrollTo(0, document.body.scrollHeight)')
    await expect(page.getByTestId('proposals').getByText(/coffee supplier/).first()).toBeVisible()
    await context.close()
  })

  test('signs in with the keyboard alone: email, the code typed digit by digit, the workspace', async ({ page }) => {
    const { server, mail } = served
    const email = uniqueEmail('keyboard')
    await page.goto(server.baseUrl)
    await expect(page.getByRole('heading', { name: 'Sign in to Confer' })).toBeFocused()
    // No identity provider is configured on this server: the email code only.
    await expect(page.getByRole('button', { name: /^Continue with/ })).toHaveCount(0)
    await page.keyboard.press('Tab')
    await expect(page.getByLabel('Email address')).toBeFocused()
    await page.keyboard.type(email)
    const seen = mail.messages.length
    await page.keyboard.press('Enter')
    await expect(page.getByLabel('Digit 1 of 6')).toBeFocused()
    const code = await mail.codeFor(email, seen)
    await page.keyboard.type(code.slice(0, 3))
    await expect(page.getByLabel('Digit 4 of 6')).toBeFocused()
    await page.keyboard.press('Backspace')
    await expect(page.getByLabel('Digit 3 of 6')).toBeFocused()
    await expect(page.getByLabel('Digit 3 of 6')).toHaveValue('')
    await page.keyboard.type(code.slice(2))
    await expect(page.getByRole('heading', { name: 'Create your workspace' })).toBeVisible()
    await page.keyboard.press('Tab')
    await expect(page.getByLabel('Workspace name')).toBeFocused()
    await page.keyboard.type('Keyboard team')
    await page.keyboard.press('Enter')
    await expect(page.getByRole('heading', { name: 'Sessions' })).toBeVisible()
  })

  test('system audio is said plainly when the shared screen has none; a share link stopped says so; phone width', async ({ browser }) => {
    const { server } = served
    const { context, cookie } = await workspaceContext(browser, served, 'parts')
    const page = await context.newPage()
    // Microphone and system audio, sharing what gives no audio (a whole screen on Linux, a window):
    // Chromium's fake capture has an audio track, so the page's getDisplayMedia drops it.
    await page.addInitScript(`{
      const original = navigator.mediaDevices.getDisplayMedia.bind(navigator.mediaDevices)
      navigator.mediaDevices.getDisplayMedia = async (options) => {
        const stream = await original(options)
        for (const track of stream.getAudioTracks()) { track.stop(); stream.removeTrack(track) }
        return stream
      }
    }`)
    await page.goto(`${server.baseUrl}/record`)
    await page.getByLabel('Microphone and system audio (a tab or screen)').check()
    await page.getByLabel('Title (optional)').fill('Audio check')
    await page.getByRole('button', { name: 'Start recording' }).click()
    await expect(page.getByTestId('no-system-audio')).toHaveText(/The shared screen or tab gives no audio: only the microphone is being recorded/)
    await expectAccessible(page, 'recording without system audio')
    await page.getByRole('button', { name: 'End the meeting' }).click()
    await expect(page.getByRole('heading', { name: 'Audio check' })).toBeVisible({ timeout: 60_000 })

    // Share, then stop sharing: the link's visitor is told it was revoked or expired.
    await page.getByRole('button', { name: 'Create a share link' }).click()
    const shareURL = await page.getByTestId('share-url').inputValue()
    const visitor = await browser.newPage()
    await visitor.goto(shareURL)
    await expect(visitor.getByRole('heading', { name: 'Audio check' })).toBeVisible()
    await page.getByRole('button', { name: 'Stop sharing' }).click()
    await expect(page.getByText('Sharing stopped: the link no longer opens this meeting.')).toBeVisible()
    await visitor.reload()
    await expect(visitor.getByRole('alert')).toHaveText('This share link has expired or was revoked. Ask the person who shared it for a new one.')
    await visitor.close()

    // At phone width nothing is wider than the screen.
    await page.setViewportSize({ width: 360, height: 740 })
    for (const path of ['/', '/record', '/board', '/notifications']) {
      await page.goto(server.baseUrl + path)
      await expect(page.locator('h1')).toBeVisible()
      expect(await page.evaluate('document.documentElement.scrollWidth'), path).toBeLessThanOrEqual(360)
    }
    await context.close()
  })
})
