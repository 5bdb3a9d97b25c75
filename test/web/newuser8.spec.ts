// What a new user met on an eighth pass. The billing page told a manager over the plan to "add seats or remove
// members", and no screen could remove (or re-role) a member, though the API could. The record page let Start open
// the microphone before the plan refused the meeting, in English in the Chinese interface (seat_limit_exceeded had no
// sentence), and "Upgrade" with the payment provider down said only "Something went wrong on the server". Renaming a
// meeting to spaces did nothing on Enter. An email sent from a server without SMTP_URL read "Sent to 1 recipient"
// though nobody received it, and its history ended in raw JSON ({"externalId":"act_…"}). Someone commenting on a
// shared meeting typed their name again on every item; Chinese action names used Latin parentheses.
import { expect, test } from '@playwright/test'
import { callJson } from '../e2e/server.ts'
import { expectAccessible, serveWithMail, signInContext, uniqueEmail, workspaceContext } from './helpers.ts'

test.describe('a new user\'s eighth pass', () => {
  const served = serveWithMail('sqlite', { JOB_POLL_INTERVAL_MS: '100' })

  test('a manager changes a member\'s access and removes them from the members page', async ({ browser }) => {
    const { server } = served
    const owner = await workspaceContext(browser, served, 'members-owner')
    const email = uniqueEmail('members-carl')
    const invitation = await callJson(server, 'POST', '/v1/workspace/invitations', owner.cookie, { email })
    const carl = await browser.newContext()
    const carlCookie = await signInContext(carl, server, served.mail, email)
    await callJson(server, 'POST', `/v1/invitations/${invitation.inviteURL.split('/invite/')[1]}/accept`, carlCookie, {})
    await callJson(server, 'PATCH', '/v1/account/profile', carlCookie, { name: 'Carl Diaz' })

    const page = await owner.context.newPage()
    await page.goto(`${server.baseUrl}/members`)
    const row = page.getByTestId('member').filter({ hasText: 'Carl Diaz' })
    // The owner's own row has no controls.
    await expect(page.getByTestId('member').filter({ hasText: 'Owner ·' }).getByRole('button')).toHaveCount(0)
    await row.getByLabel('Content permission Carl Diaz').selectOption('view')
    await expect(row).toContainText('Member · Can view and comment')
    await row.getByLabel('Access Carl Diaz').selectOption('admin')
    await expect(row).toContainText('Admin · Can view and comment')
    expect((await callJson(server, 'GET', '/v1/workspace/members', owner.cookie)).members.find((member: { email: string }) => member.email === email))
      .toMatchObject({ accessRole: 'admin', contentPermission: 'view' })
    await expectAccessible(page, 'the members page with a member\'s controls')

    await page.getByLabel('Language').selectOption('zh-Hans')
    await expect(row.getByRole('button', { name: /^移除/ })).toBeVisible()
    await page.getByLabel('语言').selectOption('en')

    page.once('dialog', (dialog) => { expect(dialog.message()).toMatch(/^Remove Carl Diaz from the workspace\?/); void dialog.dismiss() })
    await row.getByRole('button', { name: 'Remove Carl Diaz' }).click()
    await expect(row).toHaveCount(1)
    page.once('dialog', (dialog) => void dialog.accept())
    await row.getByRole('button', { name: 'Remove Carl Diaz' }).click()
    await expect(page.getByTestId('member').filter({ hasText: 'Carl Diaz' })).toHaveCount(0)
    expect((await callJson(server, 'GET', '/v1/workspace/members', owner.cookie)).members).toHaveLength(1)
    await carl.close()
    await owner.context.close()
  })

  test('renaming a meeting to spaces says why nothing is saved', async ({ browser }) => {
    const { server } = served
    const { context, cookie } = await workspaceContext(browser, served, 'rename-blank')
    const session = await callJson(server, 'POST', '/v1/sessions', cookie, { captureMode: 'microphone', title: 'Weekly sync' })
    const page = await context.newPage()
    await page.goto(`${server.baseUrl}/sessions/${session.id}`)
    await page.getByRole('button', { name: 'Rename' }).click()
    await page.getByLabel('Title of the meeting').fill('   ')
    await page.getByLabel('Title of the meeting').press('Enter')
    await expect(page.getByRole('alert')).toHaveText(/^A meeting needs a title: type a name, not only spaces/)
    await page.getByLabel('Title of the meeting').fill('Weekly planning')
    await expect(page.getByRole('alert')).toHaveCount(0)
    await page.getByLabel('Title of the meeting').press('Enter')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Weekly planning')
    await context.close()
  })

  test('an email says when the server only keeps it in its outbox, and its history has no raw JSON', async ({ browser }) => {
    test.setTimeout(90_000)
    const { server } = served
    const { context, cookie } = await workspaceContext(browser, served, 'email-outbox')
    const project = await callJson(server, 'POST', '/v1/projects', cookie, { name: 'Client' })
    await callJson(server, 'POST', '/v1/integrations/connections/credential', cookie, { projectId: project.id, service: 'email', authType: 'no_auth', credential: {}, actionIds: ['email.send'] })
    const session = await callJson(server, 'POST', '/v1/sessions', cookie, { captureMode: 'microphone', title: 'Notes', projectId: project.id })
    await callJson(server, 'POST', `/v1/sessions/${session.id}/workobjects`, cookie, { kind: 'action', title: 'Send the notes to the client', targetProjectId: project.id })
    const page = await context.newPage()
    // This server mails (SMTP_URL is the test's catcher): the page is shown a server without a mail transport.
    await page.route('**/healthz', async (route) => {
      const answer = await route.fetch()
      await route.fulfill({ response: answer, json: { ...(await answer.json()), mail: 'outbox' } })
    })
    await page.goto(`${server.baseUrl}/integrations?project=${project.id}`)
    await page.getByLabel('Tool', { exact: true }).selectOption('email')
    await expect(page.getByTestId('mail-outbox')).toHaveText(/^This server has no mail transport \(SMTP_URL is not set\)/)
    await page.getByLabel('Tool', { exact: true }).selectOption('webhook')
    await expect(page.getByTestId('mail-outbox')).toHaveCount(0)

    await page.goto(`${server.baseUrl}/sessions/${session.id}`)
    const card = page.getByTestId('work-object').filter({ hasText: 'Send the notes to the client' })
    await card.getByText('Details').click()
    await card.getByRole('button', { name: 'Show recommended actions' }).click()
    const email = card.getByTestId('external-actions').getByRole('listitem').filter({ hasText: 'Send an email (email.send)' })
    await expect(email.getByTestId('mail-outbox')).toBeVisible()
    await email.getByLabel('To (email addresses, separated by commas)').fill('ops@client.example.org')
    await email.getByRole('button', { name: 'Prepare' }).click()
    await email.getByRole('button', { name: 'Approve this payload' }).click()
    await email.getByRole('button', { name: 'Send it now' }).click()
    const execution = email.getByTestId('execution')
    await expect(execution).toContainText('Execution: succeeded', { timeout: 30_000 })
    await expect(execution.locator('ol')).not.toContainText('{')
    await expect(execution.locator('ol li').last()).toHaveText(/ · succeeded$/)

    await page.getByLabel('Language').selectOption('zh-Hans')
    await expect(card.getByTestId('external-actions').getByText('发送邮件（email.send）')).toBeVisible()
    await context.close()
  })

  test('someone commenting on a shared meeting gives their name once, and the browser remembers it', async ({ browser }) => {
    const { server } = served
    const owner = await workspaceContext(browser, served, 'share-owner')
    const session = await callJson(server, 'POST', '/v1/sessions', owner.cookie, { captureMode: 'microphone', title: 'Launch sync' })
    await callJson(server, 'POST', `/v1/sessions/${session.id}/workobjects`, owner.cookie, { kind: 'action', title: 'Send the release notes' })
    await callJson(server, 'POST', `/v1/sessions/${session.id}/workobjects`, owner.cookie, { kind: 'decision', title: 'Ship on Friday' })
    await callJson(server, 'POST', `/v1/sessions/${session.id}/end`, owner.cookie, {})
    const share = await callJson(server, 'PATCH', `/v1/sessions/${session.id}/share`, owner.cookie, { permission: 'comment' })

    const outsider = await browser.newContext({ viewport: { width: 390, height: 844 } })
    const page = await outsider.newPage()
    await page.goto(share.shareURL)
    await expect(page.getByLabel('Your name (optional)')).toHaveCount(1)
    await page.getByLabel('Your name (optional)').fill('Pat from Acme')
    const notes = page.getByRole('article').filter({ hasText: 'Send the release notes' })
    await notes.getByLabel('Comment').fill('Please include the API changes.')
    await notes.getByRole('button', { name: 'Send' }).click()
    await expect(notes.locator('.comments')).toContainText('Pat from Acme')
    const friday = page.getByRole('article').filter({ hasText: 'Ship on Friday' })
    await friday.getByLabel('Comment').fill('Friday works for us.')
    await friday.getByRole('button', { name: 'Send' }).click()
    await expect(friday.locator('.comments')).toContainText('Pat from Acme')
    const widths = await page.locator('html').evaluate((root) => [root.scrollWidth, root.clientWidth])
    expect(widths[0]).toBe(widths[1])
    await expectAccessible(page, 'a shared meeting at phone width')

    await page.reload()
    await expect(page.getByLabel('Your name (optional)')).toHaveValue('Pat from Acme')
    await outsider.close()
    await owner.context.close()
  })
})

test.describe('a new user\'s eighth pass, with billing on', () => {
  // Stripe is turned on and unreachable (a closed port); no free seat, so a new workspace of one is over its plan.
  const served = serveWithMail('sqlite', {
    STRIPE_SECRET_KEY: 'sk_test_nu8', STRIPE_WEBHOOK_SECRET: 'whsec_nu8', STRIPE_PRICE_ID: 'price_nu8',
    STRIPE_API_BASE: 'http://127.0.0.1:9', BILLING_FREE_SEATS: '0',
  })

  test('the record page says the plan stops new recordings before Start, and billing errors are sentences', async ({ browser }) => {
    const { server } = served
    const { context, cookie } = await workspaceContext(browser, served, 'plan-owner')
    await expect(callJson(server, 'POST', '/v1/sessions', cookie, { captureMode: 'microphone' })).rejects.toThrow(/: 402 .*seat_limit_exceeded/)
    const page = await context.newPage()
    await page.goto(`${server.baseUrl}/record`)
    await expect(page.getByTestId('recording-limit')).toHaveText(/^New recordings wait: more seats are in use than the workspace’s plan has\./)
    await expect(page.getByRole('button', { name: 'Start recording' })).toBeDisabled()
    await expect(page.getByRole('button', { name: 'Upload and transcribe' })).toBeDisabled()
    await expectAccessible(page, 'the record page over the plan')
    await page.getByLabel('Language').selectOption('zh-Hans')
    await expect(page.getByTestId('recording-limit')).toHaveText(/^暂时不能开始新的录制/)
    await page.getByTestId('recording-limit').getByRole('link', { name: '打开账单页面' }).click()
    await expect(page).toHaveURL(/\/billing$/)

    // The provider is down: "Upgrade" says so instead of "Something went wrong on the server".
    await page.getByLabel('语言').selectOption('en')
    await page.getByRole('button', { name: 'Upgrade' }).click()
    await expect(page.getByRole('alert')).toHaveText(/^A service this needs \(the payment provider, or a connected tool\) did not answer just now\./)

    await context.close()
  })
})
