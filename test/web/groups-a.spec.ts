// The billing, local runner and integrations screens on a self-hosted server (SQLite): billing says
// it is off, a pairing grant is shown once with its command, an email (no_auth) connection is
// created without any network call, a runner-a work object is sent to the caller's runner, and
// each page passes the axe WCAG 2 A/AA scan.
import { expect, test } from '@playwright/test'
import { callJson, startMailCatcher, type MailCatcher, type RunningServer } from '../e2e/server.ts'
import { expectAccessible, signInContext, startWebServer, uniqueEmail } from './helpers.ts'

test.describe('billing, runners and integrations screens', () => {
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

  test('a manager sees billing off, creates a pairing grant and connects email', async ({ browser }) => {
    test.setTimeout(90_000)
    const context = await browser.newContext()
    const cookie = await signInContext(context, server, mail, uniqueEmail('groups-a'))
    await callJson(server, 'POST', '/v1/account/bootstrap', cookie, {})
    await callJson(server, 'POST', '/v1/projects', cookie, { name: 'Launch' })
    const page = await context.newPage()

    await page.goto(`${server.baseUrl}/billing`)
    await expect(page.getByRole('heading', { level: 1, name: 'Billing' })).toBeVisible()
    await expect(page.getByTestId('billing-off')).toContainText('nothing is limited')
    await expect(page.getByTestId('billing-plan')).toHaveText('Self-hosted')
    await expect(page.getByText('Nothing is limited now.')).toBeVisible()
    await expect(page.getByRole('button', { name: 'Upgrade' })).toHaveCount(0)
    await expectAccessible(page, 'billing')

    // The navigation leads there once the probes answered.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Runners' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Local runners' })).toBeVisible()
    await expect(page.getByText('No runner is paired yet.')).toBeVisible()
    await page.getByRole('button', { name: 'Pair a runner' }).click()
    const grant = page.getByTestId('runner-grant')
    await expect(grant).toContainText('confer runner pair')
    await expect(grant).toContainText('shown only once')
    await expectAccessible(page, 'runners')

    await page.goto(`${server.baseUrl}/integrations`)
    await expect(page.getByRole('heading', { level: 1, name: 'Integrations' })).toBeVisible()
    await expect(page.getByLabel('Project', { exact: true })).toHaveValue(/.+/)
    await expect(page.getByText('This project has no connection yet.').first()).toBeVisible()
    await page.getByLabel('Tool', { exact: true }).selectOption('email')
    await expect(page.getByLabel('How to connect')).toHaveValue('no_auth')
    await page.getByRole('button', { name: 'Connect', exact: true }).click()
    await expect(page.getByTestId('connection-created')).toHaveText('email is connected.')
    await expect(page.getByTestId('connections')).toContainText('email.send')
    await expectAccessible(page, 'integrations')
    await page.setViewportSize({ width: 375, height: 740 })
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true)
    await page.setViewportSize({ width: 1280, height: 720 })

    // A work object whose next step is runner-a: sent to the caller's runner (queued at once, they own it).
    const session = await callJson(server, 'POST', '/v1/sessions', cookie, { captureMode: 'microphone', title: 'Runner check' })
    await callJson(server, 'POST', `/v1/sessions/${session.id}/workobjects`, cookie, { kind: 'action', title: 'Regenerate the fixtures', nextStep: 'runner-a' })
    await page.goto(`${server.baseUrl}/sessions/${session.id}`)
    const card = page.getByTestId('work-object').filter({ hasText: 'Regenerate the fixtures' })
    await card.getByText('Details', { exact: true }).click()
    await card.getByRole('button', { name: 'Send to my runner' }).click()
    await expect(card.getByTestId('runner-tasks')).toContainText('Queued for a runner')
    await card.getByRole('button', { name: 'Show recommended actions' }).click()
    await expect(card.getByTestId('external-actions').getByRole('alert')).toHaveCount(0)
    await expect(card.getByRole('button', { name: 'Refresh recommendations' })).toBeVisible()
    await expectAccessible(page, 'a work object with its runner task and external actions')

    // Phone width: the page still fits without sideways scrolling.
    await page.setViewportSize({ width: 375, height: 740 })
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true)
    await context.close()
  })
})
