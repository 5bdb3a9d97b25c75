// What a new user met on a third pass: the notifications page showed raw kinds ("Ann: workobject.assigned")
// for everything but reviews, invitations and projects, and "asked you to review" for being made the
// reviewer (then "requested your review" for the request itself: two requests, it seemed). The
// runners page gave `confer runner pair …` as if `confer` were installed and as if the runner
// needed nothing else, but it is Confer's own command line and refuses to pair without runner.json.
// A connection was named by its random alias ("webhook-69e838a4") and, in the project's access, by
// its id (con_…): two webhooks could not be told apart. A meeting recorded into a project got no
// recommended action from the project's tools, and an execution's history showed raw states.
// Recording a voice profile counted on past its minimum ("4 of 3 utterances recorded."). A wrong
// sign-in code said the server's "Invalid OTP." (the client's sentence was keyed by INVALID_OTP,
// the server sends invalid_otp). Editing a project's name past 200 characters (or a work object's
// title, a comment…) was refused with the validator's "name: must NOT have more than 200 characters".
// A link clicked while recording left the page at once: the microphone stopped without a word, and
// Record then offered a fresh form as if nothing were open.
// A new workspace's board was five empty columns, its memory page "Nothing here yet.", and the
// board named an owner without a name by their account id. An invitation link is shown once: after
// a reload it was gone, inviting the address again was refused ("resend it instead"), and the page
// had no way to resend or withdraw it. A memory conflict was titled by its stemmed matching key
// ("Contradicting entries about “drop legaci export featur”"). A member who may only view and
// comment was offered Record, Create project, Edit, Archive, Connect and Pair, each refused after the fact.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { expect, test } from '@playwright/test'
import { loadConfig } from '../../src/runner-cli/files.ts'
import { callJson } from '../e2e/server.ts'
import { expectAccessible, serveWithMail, signInContext, uniqueEmail, workspaceContext } from './helpers.ts'

test.describe('a new user\'s third pass', () => {
  const served = serveWithMail('sqlite', { JOB_POLL_INTERVAL_MS: '100' })

  test('every notification is a sentence of the reader\'s language, never a kind', async ({ browser }) => {
    test.setTimeout(90_000)
    const { server } = served
    const owner = await workspaceContext(browser, served, 'notify-owner')
    await callJson(server, 'PATCH', '/v1/account/profile', owner.cookie, { name: 'Ann Lee' })
    const memberEmail = uniqueEmail('notify-member')
    const invitation = await callJson(server, 'POST', '/v1/workspace/invitations', owner.cookie, { email: memberEmail })
    const member = await browser.newContext()
    const memberCookie = await signInContext(member, server, served.mail, memberEmail)
    await callJson(server, 'POST', `/v1/invitations/${invitation.inviteURL.split('/invite/')[1]}/accept`, memberCookie, {})
    const memberId = (await callJson(server, 'GET', '/v1/account/current', memberCookie)).account.id
    const ownerId = (await callJson(server, 'GET', '/v1/account/current', owner.cookie)).account.id

    const project = await callJson(server, 'POST', '/v1/projects', owner.cookie, { name: 'Launch' })
    const session = await callJson(server, 'POST', '/v1/sessions', owner.cookie, { captureMode: 'microphone', title: 'Weekly sync', projectId: project.id })
    const action = await callJson(server, 'POST', `/v1/sessions/${session.id}/workobjects`, owner.cookie, { kind: 'action', title: 'Send the report', targetProjectId: project.id })
    await callJson(server, 'POST', `/v1/workobjects/${action.id}/assignment`, owner.cookie, { action: 'assign', userId: memberId })
    await callJson(server, 'POST', `/v1/workobjects/${action.id}/comments`, owner.cookie, { body: 'Before Friday, please.' })
    await callJson(server, 'PATCH', `/v1/workobjects/${action.id}/stage`, owner.cookie, { fromStage: 'captured', toStage: 'structured' })
    await callJson(server, 'POST', `/v1/workobjects/${action.id}/assignment`, owner.cookie, { action: 'assign', userId: ownerId })

    const page = await member.newPage()
    await page.goto(`${server.baseUrl}/notifications`)
    const items = page.getByTestId('notifications').locator('li')
    await expect(items.filter({ hasText: 'Ann Lee assigned “Send the report” to you.' })).toHaveCount(1)
    await expect(items.filter({ hasText: 'Ann Lee commented on “Send the report”.' })).toHaveCount(1)
    await expect(items.filter({ hasText: 'Ann Lee moved “Send the report” to Structured.' })).toHaveCount(1)
    await expect(items.filter({ hasText: 'Ann Lee gave “Send the report” to someone else.' })).toHaveCount(1)
    const kinds = await items.evaluateAll((elements) => elements.map((element) => element.getAttribute('data-kind')))
    expect(kinds.length).toBeGreaterThanOrEqual(4)
    for (const text of await items.allInnerTexts()) expect(text).not.toMatch(/\b(workobject|comment|review)\.[a-z.-]+/)
    // It opens the session at the work object it is about (newuser4.spec.ts).
    await expect(items.first().getByRole('link')).toHaveAttribute('href', `/sessions/${session.id}?workObject=${action.id}`)
    await expectAccessible(page, 'notifications')

    await page.getByLabel('Language').selectOption('zh-Hans')
    await expect(items.filter({ hasText: 'Ann Lee 将“Send the report”分配给了你。' })).toHaveCount(1)
    await expect(items.filter({ hasText: 'Ann Lee 将“Send the report”移至已整理。' })).toHaveCount(1)
    await member.close()
    await owner.context.close()
  })

  test('pairing a runner says what to set up first and gives a runner.json that works', async ({ browser }) => {
    const { server } = served
    const { context } = await workspaceContext(browser, served, 'runner-setup')
    const page = await context.newPage()
    await page.goto(`${server.baseUrl}/runners`)
    await page.getByRole('button', { name: 'Pair a runner' }).click()
    const grant = page.getByTestId('runner-grant')
    const steps = grant.locator('ol > li')
    await expect(steps).toHaveCount(4)
    await expect(steps.nth(0)).toContainText('npm link')
    await expect(steps.nth(0)).toContainText('npm exec -- node src/main.ts')
    await expect(steps.nth(1)).toContainText('~/.config/confer-runner/runner.json')
    await expect(steps.nth(2)).toContainText('confer runner pair --server')
    await expect(steps.nth(3)).toContainText('confer runner start')
    const example = JSON.parse(await page.getByTestId('runner-config').innerText())
    const dir = mkdtempSync(path.join(os.tmpdir(), 'runner-example-'))
    writeFileSync(path.join(dir, 'runner.json'), JSON.stringify(example))
    const config = loadConfig(dir)
    expect(Object.keys(config.runners)).toEqual(['runner-a'])
    const pairCommand = await grant.getByLabel('Pairing command').innerText()
    expect(config.server).toBe(/--server (\S+)/.exec(pairCommand)?.[1])
    await expectAccessible(page, 'runner pairing steps')
    await context.close()
  })

  test('a connection is named by where it sends, never by its id', async ({ browser }) => {
    const { server } = served
    const { context, cookie } = await workspaceContext(browser, served, 'connection-names')
    const project = await callJson(server, 'POST', '/v1/projects', cookie, { name: 'Launch' })
    const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`
    for (const url of ['https://hooks.example.com/deploys', 'https://ci.example.org/']) {
      await callJson(server, 'POST', '/v1/integrations/connections/credential', cookie, {
        projectId: project.id, service: 'webhook', authType: 'custom_credential', actionIds: ['webhook.send'],
        credential: { signingSecret: secret }, settings: { url },
      })
    }
    const page = await context.newPage()
    await page.goto(`${server.baseUrl}/integrations?project=${project.id}`)
    const cards = page.getByTestId('connections').locator('li')
    const deploys = cards.filter({ has: page.getByText(/^Webhook · hooks\.example\.com\/deploys webhook-/) })
    await expect(deploys).toHaveCount(1)
    await expect(cards.filter({ has: page.getByText(/^Webhook · ci\.example\.org webhook-/) })).toHaveCount(1)
    const access = page.getByRole('group', { name: 'Connections' })
    expect((await access.locator('label').allInnerTexts()).map((text) => text.trim()).sort()).toEqual(['Webhook · ci.example.org', 'Webhook · hooks.example.com/deploys'])
    await expect(page.locator('main')).not.toContainText('con_')
    await deploys.getByRole('button', { name: 'Revoke', exact: true }).click()
    await expect(deploys.getByRole('group', { name: 'Revoke Webhook · hooks.example.com/deploys' })).toBeVisible()
    await expectAccessible(page, 'connections named by where they send')
    await context.close()
  })

  test('a meeting recorded into a project is offered its tools; the delivery history is in words', async ({ browser }) => {
    test.setTimeout(90_000)
    const { server } = served
    const { context, cookie } = await workspaceContext(browser, served, 'meeting-actions')
    const project = await callJson(server, 'POST', '/v1/projects', cookie, { name: 'Launch' })
    // A port nobody listens on: refused, and tried again (a port fetch never calls fails at once).
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise((resolve) => closed.close(resolve))
    await callJson(server, 'POST', '/v1/integrations/connections/credential', cookie, {
      projectId: project.id, service: 'webhook', authType: 'custom_credential', actionIds: ['webhook.send'],
      credential: { signingSecret: `whsec_${Buffer.alloc(32, 9).toString('base64')}` }, settings: { url: `http://127.0.0.1:${port}/discard` },
    })
    const session = await callJson(server, 'POST', '/v1/sessions', cookie, { captureMode: 'microphone', title: 'Weekly sync', projectId: project.id })
    await callJson(server, 'POST', `/v1/sessions/${session.id}/workobjects`, cookie, { kind: 'decision', title: 'Drop the legacy export' })
    const page = await context.newPage()
    await page.goto(`${server.baseUrl}/sessions/${session.id}`)
    const card = page.getByTestId('work-object').filter({ hasText: 'Drop the legacy export' })
    await card.getByText('Details').click()
    await card.getByRole('button', { name: 'Show recommended actions' }).click()
    await card.getByRole('button', { name: 'Refresh recommendations' }).click()
    await card.getByRole('button', { name: 'Prepare' }).click()
    await card.getByRole('button', { name: 'Approve this payload' }).click()
    await card.getByRole('button', { name: 'Send it now' }).click()
    const history = card.getByTestId('execution').locator('ol li')
    await expect(history.filter({ hasText: `· will try again — webhook: could not reach 127.0.0.1:${port}: ECONNREFUSED` }).first()).toBeVisible({ timeout: 30_000 })
    await expect(history.first()).toContainText('· queued')
    await expectAccessible(page, 'an execution that will try again')
    await context.close()
  })

  test('a voice profile with enough utterances says it can be saved, not "4 of 3"', async ({ browser }) => {
    test.setTimeout(90_000)
    const { server } = served
    const { context } = await workspaceContext(browser, served, 'voice-count')
    const page = await context.newPage()
    await page.goto(`${server.baseUrl}/voice`)
    await page.getByRole('button', { name: 'Create a voice profile' }).click()
    await page.getByLabel(/I agree/).check()
    await page.getByRole('button', { name: 'Start' }).click()
    const progress = page.getByTestId('enroll-progress')
    for (let recorded = 1; recorded <= 3; recorded += 1) {
      await page.getByRole('button', { name: /^Record (an|another) utterance$/ }).click()
      await page.waitForTimeout(3200)
      await page.getByRole('button', { name: 'Stop' }).click()
      await expect(progress).toContainText(recorded < 3 ? `${recorded} of 3` : '3 utterances recorded: enough to save (at most 10).')
    }
    await expect(progress).not.toContainText(' of 3')
    await context.close()
  })

  test('a wrong sign-in code is said in the reader\'s words, not "Invalid OTP."', async ({ browser }) => {
    const { server } = served
    const context = await browser.newContext()
    const page = await context.newPage()
    await page.goto(`${server.baseUrl}/`)
    await page.getByLabel('Email address').fill(uniqueEmail('wrong-code'))
    await page.getByRole('button', { name: 'Email me a code' }).click()
    await page.getByLabel('Digit 1 of 6').fill('000000')
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect(page.getByRole('alert')).toHaveText('That code is not right. Check the email and try again.')
    await expect(page.locator('main')).not.toContainText('OTP')
    await context.close()
  })

  test('every text field stops at the length the server takes', async ({ browser }) => {
    const { server } = served
    const { context, cookie } = await workspaceContext(browser, served, 'lengths')
    const project = await callJson(server, 'POST', '/v1/projects', cookie, { name: 'Launch' })
    const session = await callJson(server, 'POST', '/v1/sessions', cookie, { captureMode: 'microphone', title: 'Sync', projectId: project.id })
    await callJson(server, 'POST', `/v1/sessions/${session.id}/workobjects`, cookie, { kind: 'action', title: 'Send the report' })
    const page = await context.newPage()
    await page.goto(`${server.baseUrl}/projects/${project.id}`)
    await page.getByRole('button', { name: 'Edit' }).click()
    await expect(page.getByLabel('Name')).toHaveAttribute('maxlength', '200')
    await expect(page.getByLabel('Objective')).toHaveAttribute('maxlength', '2000')
    await page.getByLabel('Name').fill('')
    await page.getByLabel('Name').pressSequentially('n'.repeat(205), { delay: 0 })
    await expect(page.getByLabel('Name')).toHaveValue('n'.repeat(200))
    await page.goto(`${server.baseUrl}/sessions/${session.id}`)
    const card = page.getByTestId('work-object').first()
    await card.getByText('Details').click()
    await expect(card.getByLabel('Add a comment')).toHaveAttribute('maxlength', '10000')
    await card.getByRole('button', { name: 'Edit' }).click()
    await expect(card.getByLabel('Title')).toHaveAttribute('maxlength', '500')
    await expect(card.getByLabel('Summary')).toHaveAttribute('maxlength', '20000')
    await page.goto(`${server.baseUrl}/members`)
    await expect(page.getByLabel('Their email address')).toHaveAttribute('maxlength', '254')
    await context.close()
  })

  test('leaving the record page while the meeting records asks first', async ({ browser }) => {
    test.setTimeout(60_000)
    const { server } = served
    const { context } = await workspaceContext(browser, served, 'leave-recording')
    const page = await context.newPage()
    await page.goto(`${server.baseUrl}/projects`)
    await page.getByRole('link', { name: 'Record' }).first().click()
    await expect(page.getByRole('heading', { name: 'Record a meeting' })).toBeVisible()
    await expect(page.getByTestId('still-open')).toHaveCount(0)
    await page.getByLabel('Title (optional)').fill('Standup')
    await page.getByRole('button', { name: 'Start recording' }).click()
    await expect(page.getByTestId('chunk-status')).not.toHaveAttribute('data-recorded', '0')
    const asked: string[] = []
    page.once('dialog', (dialog) => { asked.push(dialog.message()); void dialog.dismiss() })
    await page.getByRole('link', { name: 'Work board' }).click()
    await expect.poll(() => asked.length).toBe(1)
    expect(asked[0]).toContain('The meeting is still recording. Leave this page?')
    await expect(page).toHaveURL(/\/record$/)
    const recorded = Number(await page.getByTestId('chunk-status').getAttribute('data-recorded'))
    await expect.poll(async () => Number(await page.getByTestId('chunk-status').getAttribute('data-recorded'))).toBeGreaterThan(recorded)

    // The browser's Back button asks too; staying keeps the page and its address.
    page.once('dialog', (dialog) => { asked.push(dialog.message()); void dialog.dismiss() })
    await page.goBack()
    await expect.poll(() => asked.length).toBe(2)
    expect(asked[1]).toContain('The meeting is still recording. Leave this page?')
    await expect(page).toHaveURL(/\/record$/)
    await expect(page.getByRole('button', { name: 'End the meeting' })).toBeVisible()

    page.once('dialog', (dialog) => { void dialog.accept() })
    await page.getByRole('link', { name: 'Work board' }).click()
    await expect(page).toHaveURL(/\/board$/)
    // Once left, nothing asks any more, and Record says the meeting is still open.
    await page.getByRole('link', { name: 'Record' }).first().click()
    await expect(page.getByRole('heading', { name: 'Record a meeting' })).toBeVisible()
    await expect(page.getByTestId('still-open')).toContainText('Your meeting “Standup”')
    await expect(page.getByTestId('still-open')).toContainText('is still open: Start recording continues it')
    await page.getByTestId('still-open').getByRole('link', { name: 'Open it to end it' }).click()
    await expect(page).toHaveURL(/\/sessions\/ses_/)
    await page.getByRole('button', { name: 'End the meeting' }).click()
    await expect(page.getByTestId('session-state')).not.toHaveAttribute('data-state', 'recording')
    await page.getByRole('link', { name: 'Record' }).first().click()
    await expect(page.getByRole('heading', { name: 'Record a meeting' })).toBeVisible()
    await page.getByRole('link', { name: 'Projects' }).click()
    await expect(page).toHaveURL(/\/projects$/)
    await page.getByRole('link', { name: 'Record' }).first().click()
    await expect(page.getByTestId('still-open')).toHaveCount(0)
    await context.close()
  })

  test('an empty workspace says where work and memory come from; the board names owners by email', async ({ browser }) => {
    const { server } = served
    const { context, cookie } = await workspaceContext(browser, served, 'empty-board')
    const page = await context.newPage()
    await page.goto(`${server.baseUrl}/board`)
    await expect(page.getByTestId('board-empty')).toContainText('No work yet. Work comes from meetings')
    await page.getByTestId('board-empty').getByRole('link', { name: 'Record a meeting' }).click()
    await expect(page.getByRole('heading', { name: 'Record a meeting' })).toBeVisible()
    await page.goto(`${server.baseUrl}/memory`)
    await expect(page.getByTestId('memory-no-projects')).toContainText('No project yet.')
    await page.goto(`${server.baseUrl}/integrations`)
    await page.getByTestId('integrations-no-projects').getByRole('link', { name: 'Create a project' }).click()
    await expect(page).toHaveURL(/\/projects$/)
    await expectAccessible(page, 'projects after an empty integrations page')

    // Work owned by someone who has not given a name: the board says their email.
    const me = (await callJson(server, 'GET', '/v1/account/current', cookie)).account
    const session = await callJson(server, 'POST', '/v1/sessions', cookie, { captureMode: 'microphone', title: 'Sync' })
    const item = await callJson(server, 'POST', `/v1/sessions/${session.id}/workobjects`, cookie, { kind: 'action', title: 'Send the report' })
    await callJson(server, 'POST', `/v1/workobjects/${item.id}/assignment`, cookie, { action: 'claim' })
    await page.goto(`${server.baseUrl}/board`)
    await page.getByRole('button', { name: 'By owner' }).click()
    await expect(page.getByRole('heading', { level: 2, name: `${me.email} (1)` })).toBeVisible()
    await expect(page.locator('main')).not.toContainText('acc_')
    await expect(page.getByTestId('board-empty')).toHaveCount(0)
    await context.close()
  })

  test('a lost invitation link is replaced by a new one; an invitation can be withdrawn', async ({ browser }) => {
    const { server } = served
    const { context } = await workspaceContext(browser, served, 'lost-link')
    const page = await context.newPage()
    await page.goto(`${server.baseUrl}/members`)
    const guest = uniqueEmail('guest')
    await page.getByLabel('Their email address').fill(guest)
    await page.getByRole('button', { name: 'Create invitation' }).click()
    const first = await page.getByTestId('invite-url').inputValue()
    await page.reload()
    await expect(page.getByTestId('invite-url')).toHaveCount(0)

    // Inviting the same address again says where to go instead of "resend it instead".
    await page.getByLabel('Their email address').fill(guest)
    await page.getByRole('button', { name: 'Create invitation' }).click()
    await expect(page.getByRole('alert')).toHaveText('This address already has a pending invitation: give it a new link under “Pending invitations”.')

    const pending = page.getByTestId('pending-invitation').filter({ hasText: guest })
    await expect(pending).toContainText('· Pending · expires ')
    await pending.getByRole('button', { name: `New link ${guest}` }).click()
    const renewed = pending.getByTestId('renewed-invite-url')
    await expect(renewed).toHaveValue(/\/invite\//)
    expect(await renewed.inputValue()).not.toBe(first)
    await expect(pending.getByText(`New invitation link for ${guest}`)).toBeVisible()
    await expectAccessible(page, 'a renewed invitation link')
    // The first link no longer works; the new one does.
    const token = (url: string) => url.split('/invite/')[1]!
    expect((await callJson(server, 'POST', `/v1/invitations/${token(first)}/login-intent`, '', undefined).catch((error: Error) => error.message))).toMatch(/404|410|invitation/)
    expect((await callJson(server, 'POST', `/v1/invitations/${token(await renewed.inputValue())}/login-intent`, '', undefined)).invitedEmail).toBe(guest)

    await pending.getByRole('button', { name: `Withdraw ${guest}` }).click()
    await expect(page.getByTestId('pending-invitation').filter({ hasText: guest })).toHaveCount(0)
    await context.close()
  })

  test('a memory conflict is titled by what its sides say, not its stemmed key', async ({ browser }) => {
    test.setTimeout(60_000)
    const { server } = served
    const { context, cookie } = await workspaceContext(browser, served, 'conflict-title')
    const project = await callJson(server, 'POST', '/v1/projects', cookie, { name: 'Exports' })
    for (const [title, decision] of [['Planning', 'Drop the legacy export feature'], ['Follow-up', 'Keep the legacy export feature']]) {
      const session = await callJson(server, 'POST', '/v1/sessions', cookie, { captureMode: 'microphone', title, projectId: project.id })
      await callJson(server, 'POST', `/v1/sessions/${session.id}/workobjects`, cookie, { kind: 'decision', title: decision })
      await callJson(server, 'POST', `/v1/sessions/${session.id}/end`, cookie, {})
    }
    const memoryPath = `/v1/projects/${project.id}/memory`
    await expect.poll(async () => (await callJson(server, 'GET', memoryPath, cookie)).conflicts.length, { timeout: 30_000 }).toBe(1)
    const page = await context.newPage()
    await page.goto(`${server.baseUrl}/projects/${project.id}/memory`)
    const conflict = page.getByTestId('conflict')
    await expect(conflict.getByRole('heading', { level: 3 })).toHaveText('These entries contradict each other: “Drop the legacy export feature” / “Keep the legacy export feature”')
    await expect(page.locator('main')).not.toContainText('legaci')
    await conflict.getByLabel(/Dismiss/).check()
    await conflict.getByRole('button', { name: 'Settle the conflict' }).click()
    await expect(page.getByTestId('settled-conflict')).toContainText('“Drop the legacy export feature” / “Keep the legacy export feature”')
    await expect(page.locator('main')).not.toContainText('legaci')
    await context.close()
  })

  test('a view-only member is told what they may do instead of being offered what is refused', async ({ browser }) => {
    const { server } = served
    const owner = await workspaceContext(browser, served, 'view-owner')
    const project = await callJson(server, 'POST', '/v1/projects', owner.cookie, { name: 'Launch' })
    const viewerEmail = uniqueEmail('viewer')
    const invitation = await callJson(server, 'POST', '/v1/workspace/invitations', owner.cookie, { email: viewerEmail, contentPermission: 'view' })
    const viewer = await browser.newContext()
    const viewerCookie = await signInContext(viewer, server, served.mail, viewerEmail)
    await callJson(server, 'POST', `/v1/invitations/${invitation.inviteURL.split('/invite/')[1]}/accept`, viewerCookie, {})
    const page = await viewer.newPage()
    await page.goto(`${server.baseUrl}/record`)
    await expect(page.getByTestId('view-only')).toContainText('you cannot record a meeting here: that needs edit permission')
    await expect(page.getByRole('button', { name: 'Start recording' })).toHaveCount(0)
    await expectAccessible(page, 'record, view only')
    await page.goto(`${server.baseUrl}/projects`)
    await expect(page.getByTestId('view-only')).toBeVisible()
    await expect(page.getByRole('button', { name: 'Create project' })).toHaveCount(0)
    await page.getByRole('link', { name: 'Launch' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Launch' })).toBeVisible()
    await expect(page.getByRole('link', { name: 'Project memory' })).toBeVisible()
    await expect(page.getByRole('link', { name: 'Record a meeting in this project' })).toHaveCount(0)
    await expect(page.getByRole('button', { name: 'Edit' })).toHaveCount(0)
    await expect(page.getByRole('button', { name: 'Archive' })).toHaveCount(0)
    await page.goto(`${server.baseUrl}/integrations`)
    await expect(page.getByTestId('view-only')).toBeVisible()
    await expect(page.getByRole('button', { name: 'Connect', exact: true })).toHaveCount(0)
    await page.goto(`${server.baseUrl}/runners`)
    await expect(page.getByTestId('view-only')).toBeVisible()
    await expect(page.getByRole('button', { name: 'Pair a runner' })).toHaveCount(0)
    // The owner still has all of it.
    const ownerPage = await owner.context.newPage()
    await ownerPage.goto(`${server.baseUrl}/projects/${project.id}`)
    await expect(ownerPage.getByRole('button', { name: 'Archive' })).toBeVisible()
    await expect(ownerPage.getByRole('link', { name: 'Record a meeting in this project' })).toBeVisible()
    await viewer.close()
    await owner.context.close()
  })
})
