// A large session stays quick: 1,000 transcript segments and 100 work objects are on screen and
// the transcript search answers shortly after navigation (measured in the page from its
// navigation start; the bound is loose because CI shares its CPUs, the figure is printed).
import { expect, test } from '@playwright/test'
import { callJson, startMailCatcher, type MailCatcher, type RunningServer } from '../e2e/server.ts'
import { connectSocket } from '../ws-client.ts'
import { signInContext, startWebServer, uniqueEmail } from './helpers.ts'

const SEGMENTS = 1000
const WORK_OBJECTS = 100

test.describe('a large session', () => {
  let mail: MailCatcher
  let server: RunningServer
  test.beforeAll(async () => {
    mail = await startMailCatcher()
    server = await startWebServer('sqlite', { SMTP_URL: mail.url })
  })
  test.afterAll(async () => {
    await server?.stop()
    await mail?.close()
  })

  test(`${SEGMENTS} segments and ${WORK_OBJECTS} work objects are interactive quickly`, async ({ browser }) => {
    const context = await browser.newContext()
    const cookie = await signInContext(context, server, mail, uniqueEmail('large'))
    await callJson(server, 'POST', '/v1/account/bootstrap', cookie, {})
    const session = await callJson(server, 'POST', '/v1/sessions', cookie, { captureMode: 'microphone', title: 'Quarterly review' })
    const socket = connectSocket(session.websocketURL, { cookie, origin: server.baseUrl })
    await socket.waitFor((message) => message.type === 'hello')
    for (let index = 0; index < SEGMENTS; index += 1) {
      socket.send({ type: 'transcript.segment', data: { id: `seg-${index}`, text: `Point number ${index} about the quarterly numbers`, startMs: index * 3000, endMs: index * 3000 + 2500, speakerId: `spk_${(index % 3) + 1}` } })
    }
    await expect.poll(() => socket.messages.filter((message) => message.type === 'transcript.final').length, { timeout: 120_000 }).toBeGreaterThanOrEqual(SEGMENTS)
    await socket.close()
    for (let index = 0; index < WORK_OBJECTS; index += 1) {
      await callJson(server, 'POST', `/v1/sessions/${session.id}/workobjects`, cookie, { kind: 'action', title: `Follow-up ${index}` })
    }

    const page = await context.newPage()
    await page.goto(`${server.baseUrl}/sessions/${session.id}`)
    // A page-side expression (the test's TypeScript has no DOM types).
    await page.waitForFunction(`document.querySelectorAll('[data-testid=transcript] li').length >= ${SEGMENTS}
      && document.querySelectorAll('[data-testid=work-object]').length >= ${WORK_OBJECTS}`, undefined, { timeout: 60_000, polling: 'raf' })
    const renderedAt = await page.evaluate(() => performance.now())
    await page.getByLabel('Search the transcript').fill('number 999 ')
    await expect(page.getByText('1 matching segments')).toBeVisible()
    const answeredAt = await page.evaluate(() => performance.now())
    console.log(`large session: rendered ${Math.round(renderedAt)} ms after navigation start, search answered at ${Math.round(answeredAt)} ms`)
    expect(renderedAt).toBeLessThan(5_000)
    await context.close()
  })

  test('signs in with the keyboard alone: email, the code typed digit by digit, the workspace', async ({ page }) => {
    const email = uniqueEmail('keyboard')
    await page.goto(server.baseUrl)
    await expect(page.getByRole('heading', { name: 'Sign in to Confer' })).toBeFocused()
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
})
