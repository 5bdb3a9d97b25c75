// What a newcomer met on a fresh install. A meeting belongs to a project from the start: the
// project's page records into it, the record page preselects it, the ended session shows it, and
// the session can be moved out of it again (before, no meeting reached any project memory from the
// web client). The members page names roles and invitation states in the reader's language.
// Without a mail server the code page says where the code went (the server log). A share link
// made earlier is shown again on the session page. Default speaker labels follow the language. A
// mistyped invitation link is said plainly. A session ended elsewhere brings the sign-in page (it
// left the page at "Loading…"), and a signed-out first load makes no request that fails.
import { expect, test } from '@playwright/test'
import { callJson } from '../e2e/server.ts'
import { expectAccessible, serveWithMail, startWebServer, uniqueEmail, workspaceContext } from './helpers.ts'
import type { RunningServer } from '../e2e/server.ts'

test.describe('a newcomer\'s first steps', () => {
  const served = serveWithMail('sqlite', { JOB_POLL_INTERVAL_MS: '100' })

  test('record from the project page, see it on the session, move it out', async ({ browser }) => {
    test.setTimeout(120_000)
    const { server } = served
    const { context, cookie } = await workspaceContext(browser, served, 'project-meetings')
    const project = await callJson(server, 'POST', '/v1/projects', cookie, { name: 'Mobile release' })
    await callJson(server, 'POST', '/v1/projects', cookie, { name: 'Hiring' })
    const page = await context.newPage()

    await page.goto(`${server.baseUrl}/projects/${project.id}`)
    await page.getByRole('link', { name: 'Record a meeting in this project' }).click()
    await expect(page.getByRole('heading', { name: 'Record a meeting' })).toBeVisible()
    const chosen = page.getByLabel('Project (optional)')
    await expect(chosen).toHaveValue(project.id)
    await expect(chosen.locator('option')).toHaveText(['No project', 'Hiring', 'Mobile release'], { useInnerText: true })
    await expectAccessible(page, 'record with a project')
    await page.getByLabel('Title (optional)').fill('Release sync')
    await page.getByRole('button', { name: 'Start recording' }).click()
    await expect(page.getByRole('heading', { name: 'Release sync' })).toBeVisible()
    await expect(page.getByTestId('chunk-status')).not.toHaveAttribute('data-recorded', '0')
    await page.getByRole('button', { name: 'End the meeting' }).click()
    await expect(page).toHaveURL(/\/sessions\/ses_/, { timeout: 30_000 })
    const sessionId = page.url().split('/sessions/')[1]!

    // The session knows its project, and the project lists the session.
    await expect(page.getByLabel('Project', { exact: true })).toHaveValue(project.id)
    await expect(page.getByRole('link', { name: 'Project memory' })).toHaveAttribute('href', `/projects/${project.id}/memory`)
    expect((await callJson(server, 'GET', `/v1/sessions/${sessionId}`, cookie)).projectId).toBe(project.id)
    await expectAccessible(page, 'session with a project')
    await page.goto(`${server.baseUrl}/projects/${project.id}`)
    await expect(page.getByRole('link', { name: 'Release sync' })).toBeVisible()

    // Moved out of any project from the session page.
    await page.goto(`${server.baseUrl}/sessions/${sessionId}`)
    await page.getByLabel('Project', { exact: true }).selectOption('')
    await expect.poll(async () => (await callJson(server, 'GET', `/v1/sessions/${sessionId}`, cookie)).projectId ?? null).toBeNull()
    await expect(page.getByRole('link', { name: 'Project memory' })).toHaveCount(0)

    // A share link made earlier is shown after a reload; before there is one, nothing fails.
    const failed: string[] = []
    page.on('response', (response) => { if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`) })
    await page.reload()
    await expect(page.getByRole('button', { name: 'Create a share link' })).toBeVisible()
    await page.getByRole('button', { name: 'Create a share link' }).click()
    const shareURL = await page.getByTestId('share-url').inputValue()
    await page.reload()
    await expect(page.getByTestId('share-url')).toHaveValue(shareURL)
    expect(failed).toEqual([])
    await context.close()
  })

  test('members: roles and invitation states are words of the chosen language', async ({ browser }) => {
    const { server } = served
    const { context, cookie } = await workspaceContext(browser, served, 'members-words')
    const me = await callJson(server, 'GET', '/v1/account/current', cookie)
    const page = await context.newPage()
    await page.goto(`${server.baseUrl}/members`)
    await page.getByLabel('Their email address').fill('guest@example.com')
    await page.getByRole('button', { name: 'Create invitation' }).click()
    await expect(page.getByTestId('invite-url')).toBeVisible()
    const mine = page.locator('li').filter({ hasText: me.account.email })
    await expect(mine).toHaveText(`${me.account.email} · Owner · Can edit`)
    await expect(page.locator('li').filter({ hasText: 'guest@example.com' })).toContainText('· Pending ·')
    await page.getByLabel('Language').selectOption('zh-Hans')
    await expect(mine).toHaveText(`${me.account.email} · 所有者 · 可编辑`)
    await expect(page.locator('li').filter({ hasText: 'guest@example.com' })).toContainText('· 待接受 ·')
    await context.close()
  })

  test('a mistyped or unknown invitation link is said plainly', async ({ browser }) => {
    const context = await browser.newContext()
    const page = await context.newPage()
    for (const token of ['short', 'a'.repeat(24)]) {
      await page.goto(`${served.server.baseUrl}/invite/${token}`)
      await expect(page.getByRole('heading', { name: 'You are invited' })).toBeVisible()
      await expect(page.getByText('This invitation link is not valid.')).toBeVisible()
      await expect(page.getByText(/invitationToken|must NOT/)).toHaveCount(0)
    }
    await context.close()
  })

  test('a session ended elsewhere brings the sign-in page at the next request', async ({ browser }) => {
    const { server, mail } = served
    const { context, cookie } = await workspaceContext(browser, served, 'ended-elsewhere')
    const email = (await callJson(server, 'GET', '/v1/account/current', cookie)).account.email as string
    const page = await context.newPage()
    await page.goto(`${server.baseUrl}/board`)
    await expect(page.getByRole('heading', { name: 'Work board' })).toBeVisible()
    await context.clearCookies()
    await page.getByRole('link', { name: 'Projects' }).click()
    await expect(page.getByRole('heading', { name: 'Sign in to Confer' })).toBeVisible()
    // Signing in again brings the page back.
    const seen = mail.messages.length
    await page.getByLabel('Email address').fill(email)
    await page.getByRole('button', { name: 'Email me a code' }).click()
    await page.getByLabel('Digit 1 of 6').fill(await mail.codeFor(email, seen))
    await expect(page.getByRole('heading', { name: 'Projects', level: 1 })).toBeVisible()
    await context.close()
  })

  test('default speaker labels are shown in the chosen language, given names as they are', async ({ browser }) => {
    const { server } = served
    const { context, cookie } = await workspaceContext(browser, served, 'speaker-words')
    const session = await callJson(server, 'POST', '/v1/sessions', cookie, { captureMode: 'microphone', title: 'Standup' })
    const page = await context.newPage()
    // Segments as the server stores them (a recording would need a speech engine here).
    await page.route('**/v1/sessions/*/transcript*', async (route) => {
      const response = await route.fetch()
      const body = await response.json()
      const segment = (n: number, speakerId: string, speakerLabel: string, text: string) => ({
        id: `seg_${n}`, sessionId: session.id, startMs: n * 1000, endMs: n * 1000 + 900, text, status: 'final', source: 'server',
        createdAt: '2026-11-25T00:00:00.000Z', updatedAt: '2026-11-25T00:00:00.000Z', speakerId, speakerLabel,
      })
      body.segments = [segment(1, 'spk_1', 'Speaker 1', 'We ship on Friday.'), segment(2, 'spk_2', 'Speaker 2', 'I will write the notes.'), segment(3, 'spk_3', 'Ada', 'Agreed.')]
      body.speakers = [{ speakerId: 'spk_1', label: 'Speaker 1' }, { speakerId: 'spk_2', label: 'Speaker 2' }, { speakerId: 'spk_3', label: 'Ada' }]
      await route.fulfill({ response, json: body })
    })
    await page.goto(`${server.baseUrl}/sessions/${session.id}`)
    await expect(page.getByText('We ship on Friday.')).toBeVisible()
    await expect(page.locator('li', { hasText: 'We ship on Friday.' })).toContainText('Speaker 1')
    await page.getByLabel('Language').selectOption('zh-Hans')
    await expect(page.locator('li', { hasText: 'We ship on Friday.' })).toContainText('发言人 1')
    await expect(page.locator('li', { hasText: 'I will write the notes.' })).toContainText('发言人 2')
    await expect(page.locator('li', { hasText: 'Agreed.' })).toContainText('Ada')
    await expect(page.getByTestId('speaker').filter({ hasText: '发言人 2' })).toHaveCount(1)
    await context.close()
  })
})

test.describe('signing in without a mail server', () => {
  let server: RunningServer
  test.beforeAll(async () => { server = await startWebServer('sqlite', {}) })
  test.afterAll(async () => { await server?.stop() })

  test('a signed-out first load shows the sign-in page without a failing request', async ({ browser }) => {
    const context = await browser.newContext()
    const page = await context.newPage()
    const failed: string[] = []
    const errors: string[] = []
    page.on('response', (response) => { if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`) })
    page.on('console', (message) => { if (message.type() === 'error') errors.push(message.text()) })
    for (const url of ['/', '/sessions/ses_01M88759S3HHD5E5GD1VZ5NCGV', '/board']) {
      await page.goto(`${server.baseUrl}${url}`)
      await expect(page.getByRole('heading', { name: 'Sign in to Confer' })).toBeVisible()
      await page.waitForLoadState('networkidle')
    }
    expect(failed).toEqual([])
    expect(errors).toEqual([])
    await context.close()
  })

  test('the code page says the code is in the server log', async ({ browser }) => {
    const context = await browser.newContext()
    const page = await context.newPage()
    await page.goto(server.baseUrl)
    await page.getByLabel('Email address').fill(uniqueEmail('no-smtp'))
    await page.getByRole('button', { name: 'Email me a code' }).click()
    await expect(page.getByTestId('mail-delivery')).toHaveText(/no mail server set up \(SMTP_URL\).*printed in the server’s log/)
    await expectAccessible(page, 'sign-in code without a mail server')
    await context.close()
  })
})
