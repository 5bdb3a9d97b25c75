// The billing, local runner and integrations screens on a self-hosted server (SQLite): billing says
// it is off, a pairing grant is shown once with its command, an email (no_auth) connection is
// created without any network call, a runner-a work object is sent to the caller's runner, a
// webhook connection delivers a decision after its exact payload was shown and approved, is listed
// and then revoked after a confirmation, and
// each page passes the axe WCAG 2 A/AA scan.
import { createServer, type Server } from 'node:http'
import { expect, test } from '@playwright/test'
import { callJson } from '../e2e/server.ts'
import { expectAccessible, serveWithMail, workspaceContext } from './helpers.ts'

test.describe('billing, runners and integrations screens', () => {
  const served = serveWithMail('sqlite')
  let receiver: Server
  const delivered: string[] = []
  test.beforeAll(async () => {
    // A local webhook receiver: the approved action's delivery lands here.
    receiver = createServer((request, response) => {
      let body = ''
      request.on('data', (chunk) => { body += chunk })
      request.on('end', () => { delivered.push(body); response.writeHead(204).end() })
    })
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  })
  test.afterAll(async () => {
    await new Promise((resolve) => receiver?.close(resolve))
  })

  test('billing off, a pairing grant, connections, a runner task and an approved webhook delivery', async ({ browser }) => {
    test.setTimeout(90_000)
    const { server } = served
    const { context, cookie } = await workspaceContext(browser, served, 'groups-a')
    const project = await callJson(server, 'POST', '/v1/projects', cookie, { name: 'Launch' })
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
    await expect(page.getByTestId('connection-created')).toHaveText('Email is connected.')
    await expect(page.getByTestId('connections')).toContainText('Send an email (email.send)')
    // Tools and actions by the names people use, the ids beside the actions.
    await expect(page.getByLabel('Tool', { exact: true }).locator('option')).toHaveText(['Email', 'Webhook', 'GitHub', 'Linear', 'Slack', 'Calendar (CalDAV)'], { useInnerText: true })
    await expectAccessible(page, 'integrations')
    await page.setViewportSize({ width: 375, height: 740 })
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth + 1')).toBe(true)
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

    // A webhook connection through the form; then a decision's recommended webhook delivery is
    // prepared, its exact payload and hash shown, approved, sent, and its execution succeeds.
    await page.goto(`${server.baseUrl}/integrations?project=${project.id}`)
    await page.getByLabel('Tool', { exact: true }).selectOption('webhook')
    await page.getByLabel('Signing secret (whsec_…)').fill(`whsec_${Buffer.from('a-test-signing-secret-of-32-bytes').toString('base64')}`)
    const { port } = receiver.address() as { port: number }
    await page.getByLabel('Webhook URL').fill(`http://127.0.0.1:${port}/hook`)
    await page.getByRole('button', { name: 'Connect', exact: true }).click()
    await expect(page.getByTestId('connection-created')).toHaveText('Webhook is connected.')
    await callJson(server, 'POST', `/v1/sessions/${session.id}/workobjects`, cookie, { kind: 'decision', title: 'We ship on Friday', targetProjectId: project.id })
    await page.goto(`${server.baseUrl}/sessions/${session.id}`)
    const decision = page.getByTestId('work-object').filter({ hasText: 'We ship on Friday' })
    await decision.getByText('Details', { exact: true }).click()
    await decision.getByRole('button', { name: 'Show recommended actions' }).click()
    await expect(decision.locator('.badge').filter({ hasText: '(webhook.send)' })).toHaveText('Call a webhook (webhook.send)')
    await decision.getByRole('button', { name: 'Prepare' }).click()
    await expect(decision.getByTestId('prepared-payload')).toContainText('"type": "confer.decision"')
    await expect(decision.getByTestId('payload-hash')).toHaveText(/^[0-9a-f]{64}$/)
    await expectAccessible(page, 'a prepared external action')
    await decision.getByRole('button', { name: 'Approve this payload' }).click()
    await decision.getByRole('button', { name: 'Send it now' }).click()
    await expect(decision.getByTestId('execution')).toContainText('Execution: succeeded', { timeout: 20_000 })
    expect(delivered.some((body) => body.includes('We ship on Friday'))).toBe(true)
    // Its receipt is on the work object: shown in its details after a reload.
    await page.reload()
    const sent = page.getByTestId('work-object').filter({ hasText: 'We ship on Friday' })
    await sent.getByText('Details', { exact: true }).click()
    await expect(sent.getByTestId('external-refs')).toContainText('webhook')
    await expect(sent.getByTestId('external-refs')).toContainText('Delivered to 127.0.0.1')
    await expectAccessible(page, 'a work object with a receipt')

    // The project's connections are listed (no secret shown); the webhook one is revoked after a confirmation.
    await page.goto(`${server.baseUrl}/integrations?project=${project.id}`)
    const webhook = page.getByTestId('connections').locator('li').filter({ hasText: 'webhook.send' })
    await expect(webhook).toContainText('credential stored (never shown)')
    await expect(page.getByTestId('connections')).not.toContainText('whsec_')
    await webhook.getByRole('button', { name: 'Revoke', exact: true }).click()
    const confirm = webhook.getByRole('group', { name: /^Revoke Webhook · 127\.0\.0\.1:\d+\/hook$/ })
    await expect(confirm).toContainText('Its stored credential is deleted')
    await expectAccessible(page, 'revoking a connection')
    await confirm.getByRole('button', { name: 'Yes, revoke' }).click()
    await expect(page.getByTestId('connection-revoked')).toContainText('is revoked')
    await expect(page.getByTestId('connections').locator('li').filter({ hasText: 'webhook.send' })).toHaveCount(0)
    const all = await callJson(server, 'GET', `/v1/integrations/connections?projectId=${project.id}&includeRevoked=true`, cookie)
    expect(all.filter((connection: { service: string; status: string }) => connection.service === 'webhook').map((connection: { status: string }) => connection.status)).toEqual(['revoked'])

    // Phone width: the page still fits without sideways scrolling.
    await page.setViewportSize({ width: 375, height: 740 })
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth + 1')).toBe(true)
    await context.close()
  })
})
