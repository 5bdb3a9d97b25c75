// What a new user met on a second pass (issue 15): a work object's due date could not be set, the
// takeover summary kept showing work as it was before the triage with no hint and no way to bring
// it up to date (nor said which of its items were still proposals), "no external action is recommended" did not say where actions come from, the
// projects page was blank before the first project, the memory page of an unknown project was
// titled "Memory of" with nothing after it, a revision's author was the raw `ai`/`person`, and a
// tool connected without a credential read "No credential needed · no credential", and a mistyped
// address showed the API's raw 404 JSON, nobody could give the name colleagues see, and a refused
// microphone left a session "recording" forever (and starting again silently continued it), a
// webhook's signing secret was refused with a raw regular expression, and one tool's error stayed
// on the form after choosing another, and an archived project still offered to record into it (the
// record page then showed "No project" but sent the archived project), and an invitation opened
// while signed in as someone else offered "Join", which could only be refused.
import { expect, test } from '@playwright/test'
import { callJson } from '../e2e/server.ts'
import { connectSocket } from '../ws-client.ts'
import { expectAccessible, serveWithMail, uniqueEmail, workspaceContext } from './helpers.ts'

test.describe('a new user\'s second pass', () => {
  const served = serveWithMail('sqlite', { JOB_POLL_INTERVAL_MS: '100' })

  test('set a due date; the summary says it is out of date and is brought up to date; actions say where they come from', async ({ browser }) => {
    test.setTimeout(90_000)
    const { server } = served
    const { context, cookie } = await workspaceContext(browser, served, 'due-date')
    const project = await callJson(server, 'POST', '/v1/projects', cookie, { name: 'Launch' })
    const session = await callJson(server, 'POST', '/v1/sessions', cookie, { captureMode: 'microphone', title: 'Weekly sync', projectId: project.id })
    const action = await callJson(server, 'POST', `/v1/sessions/${session.id}/workobjects`, cookie, { kind: 'action', title: 'Send the report', targetProjectId: project.id })
    await callJson(server, 'POST', `/v1/sessions/${session.id}/end`, cookie, {})
    await expect.poll(async () => (await callJson(server, 'GET', `/v1/worksets/${action.workSetId}`, cookie)).takeoverState, { timeout: 30_000 }).toBe('ready')

    const page = await context.newPage()
    await page.goto(`${server.baseUrl}/sessions/${session.id}`)
    const summary = page.getByRole('region', { name: 'Takeover summary' })
    await expect(summary.getByRole('listitem')).toHaveText(['Send the report'])
    await expect(page.getByTestId('takeover-outdated')).toHaveCount(0)

    const card = page.getByTestId('work-object').filter({ hasText: 'Send the report' })
    await card.getByText('Details').click()
    await card.getByRole('button', { name: 'Edit' }).click()
    await card.getByLabel('Due date (optional)').fill('2026-12-04')
    await card.getByRole('button', { name: 'Save' }).click()
    await expect(card.locator('.meta')).toContainText('Due Dec 4, 2026')
    expect((await callJson(server, 'GET', `/v1/workobjects/${action.id}`, cookie)).dueDate).toBe('2026-12-04')

    await expect(page.getByTestId('takeover-outdated')).toHaveText('The work has changed since this summary was made.')
    await expectAccessible(page, 'session with an outdated summary')
    await page.getByRole('button', { name: 'Bring the summary up to date' }).click()
    await expect(summary.getByRole('listitem')).toHaveText(['Send the report (Dec 4, 2026)'])
    await expect(page.getByTestId('takeover-outdated')).toHaveCount(0)
    await expect(card.locator('.revisions li')).toContainText(['Revision 1 · by a person'])

    // No connection: the panel says where actions come from and links to the integrations page.
    await card.getByRole('button', { name: 'Show recommended actions' }).click()
    await expect(card.getByTestId('actions-none')).toContainText('Actions come from the tools connected to the item\'s project')
    await card.getByTestId('actions-none').getByRole('link', { name: 'Connect a tool' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Integrations' })).toBeVisible()
    // A tool that needs no credential is not also said to have "no credential".
    await page.getByRole('button', { name: 'Connect', exact: true }).click()
    const connection = page.locator('li[data-connection-id]')
    await expect(connection).toContainText('No credential needed · connected')
    await expect(connection).not.toContainText('no credential')
    await context.close()
  })

  test('the summary marks proposals; accepting and rejecting them makes it out of date until it is brought up to date', async ({ browser }) => {
    test.setTimeout(90_000)
    const { server } = served
    const { context, cookie } = await workspaceContext(browser, served, 'proposed')
    const session = await callJson(server, 'POST', '/v1/sessions', cookie, { captureMode: 'microphone', title: 'Planning' })
    const socket = connectSocket(session.websocketURL, { cookie, origin: server.baseUrl })
    await socket.waitFor((message) => message.type === 'hello')
    const lines = ['Good morning everyone.', 'I will send the report to the team by Friday.', 'We decided to move the launch to next week.']
    lines.forEach((text, index) => socket.send({ type: 'transcript.segment', data: { id: `plan-seg-${index}`, text, startMs: index * 4000, endMs: index * 4000 + 3500, speakerId: 'spk_1' } }))
    await expect.poll(() => socket.messages.filter((message) => message.type === 'transcript.final').length, { timeout: 20_000 }).toBeGreaterThanOrEqual(lines.length)
    await socket.close()
    await callJson(server, 'POST', `/v1/sessions/${session.id}/end`, cookie, {})
    const page = await context.newPage()
    await page.goto(`${server.baseUrl}/sessions/${session.id}`)
    const summary = page.getByRole('region', { name: 'Takeover summary' })
    await expect(summary.getByRole('listitem')).toHaveCount(2, { timeout: 30_000 })
    for (const item of await summary.getByRole('listitem').all()) await expect(item).toContainText('· proposed, not accepted yet')
    // One match is "1 matching segment" (it said "1 matching segments").
    await page.getByLabel('Search the transcript').fill('report')
    await expect(page.getByText('1 matching segment', { exact: true })).toBeVisible()
    await page.getByLabel('Search the transcript').fill('')
    await expect(page.getByTestId('takeover-outdated')).toHaveCount(0)

    const proposals = page.getByRole('region', { name: /Proposals/ })
    await proposals.getByTestId('work-object').filter({ hasText: 'report' }).getByRole('button', { name: 'Accept' }).click()
    await expect(page.getByTestId('takeover-outdated')).toBeVisible()
    await proposals.getByTestId('work-object').filter({ hasText: 'launch' }).getByRole('button', { name: 'Reject' }).click()
    await expect(proposals).toHaveCount(0)
    await page.getByRole('button', { name: 'Bring the summary up to date' }).click()
    await expect(summary.getByRole('listitem')).toHaveCount(1)
    await expect(summary.getByRole('listitem')).toContainText('report')
    await expect(summary.getByRole('listitem')).not.toContainText('proposed')
    await expect(page.getByTestId('takeover-outdated')).toHaveCount(0)
    await context.close()
  })

  test('a refused microphone leaves no session behind', async ({ browser }) => {
    const { server } = served
    const { context, cookie } = await workspaceContext(browser, served, 'no-mic')
    await context.addInitScript(`navigator.mediaDevices.getUserMedia = () => Promise.reject(new DOMException('Permission denied', 'NotAllowedError'))`)
    const page = await context.newPage()
    await page.goto(`${server.baseUrl}/record`)
    await page.getByLabel('Title (optional)').fill('Standup')
    await page.getByRole('button', { name: 'Start recording' }).click()
    await expect(page.getByText('The microphone could not be opened. Allow it in the browser and try again.')).toBeVisible()
    // Before, the session was created first and stayed "recording" with no audio, and the next
    // attempt was handed that session back (its title and all).
    expect(await callJson(server, 'GET', '/v1/sessions', cookie)).toEqual([])
    await context.close()
  })

  test('starting while a meeting of yours is still open says that it continues that one', async ({ browser }) => {
    const { server } = served
    const { context, cookie } = await workspaceContext(browser, served, 'reused')
    const open = await callJson(server, 'POST', '/v1/sessions', cookie, { captureMode: 'microphone', title: 'Left open' })
    const page = await context.newPage()
    await page.goto(`${server.baseUrl}/record`)
    await page.getByLabel('Title (optional)').fill('Fresh start')
    await page.getByRole('button', { name: 'Start recording' }).click()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Left open')
    await expect(page.getByTestId('reused-session')).toContainText('A meeting of yours was still open')
    expect((await callJson(server, 'GET', '/v1/sessions', cookie)).map((row: { id: string }) => row.id)).toEqual([open.id])
    await page.getByRole('button', { name: 'End the meeting' }).click()
    await expect(page).toHaveURL(new RegExp(`/sessions/${open.id}`), { timeout: 30_000 })
    await context.close()
  })

  test('a webhook secret can be generated; a malformed one is caught before sending; another tool clears the last error', async ({ browser }) => {
    const { server } = served
    const { context, cookie } = await workspaceContext(browser, served, 'webhook-secret')
    await callJson(server, 'POST', '/v1/projects', cookie, { name: 'Launch' })
    const page = await context.newPage()
    await page.goto(`${server.baseUrl}/integrations`)
    const form = page.getByRole('form', { name: 'Connect a tool' })

    // OAuth is not configured here, so it is not offered; a refused connection's error goes when another tool is chosen.
    await form.getByLabel('Tool', { exact: true }).selectOption({ label: 'GitHub' })
    await expect(form.getByLabel('How to connect').getByRole('option', { name: 'Sign in with the provider (OAuth)' })).toHaveCount(0)
    await form.getByLabel('API key').fill('ghp_not_checked_here')
    // (A repository that is not owner/name is refused by the browser since the sixth pass: a refusal the server gives here.)
    await form.getByLabel(/Default repository/).fill('acme/website')
    await page.route('**/api/v1/integrations/connections/credential', (route) => route.fulfill({ status: 400, contentType: 'application/problem+json', body: JSON.stringify({ status: 400, code: 'invalid_request', detail: 'GitHub refused the token.' }) }), { times: 1 })
    await form.getByRole('button', { name: 'Connect', exact: true }).click()
    await expect(form.getByRole('alert')).toHaveText('GitHub refused the token.')
    await form.getByLabel('Tool', { exact: true }).selectOption({ label: 'Webhook' })
    await expect(form.getByRole('alert')).toHaveCount(0)

    const secret = form.getByLabel('Signing secret (whsec_…)')
    await secret.fill('mysecret')
    await form.getByLabel('Webhook URL').fill('https://example.com/hook')
    let posted = 0
    page.on('request', (request) => { if (request.method() === 'POST' && request.url().includes('/connections/credential')) posted += 1 })
    await form.getByRole('button', { name: 'Connect', exact: true }).click()
    await expect(secret).toHaveJSProperty('validity.patternMismatch', true)
    expect(posted).toBe(0)
    await expect(form.getByText('The receiver checks each delivery with the same secret')).toBeVisible()
    await form.getByRole('button', { name: 'Generate a secret' }).click()
    await expect(secret).toHaveAttribute('type', 'text')
    expect(await secret.inputValue()).toMatch(/^whsec_[A-Za-z0-9+/=]{24,}$/)
    await form.getByRole('button', { name: 'Connect', exact: true }).click()
    await expect(form.getByTestId('connection-created')).toHaveText('Webhook is connected.')
    await expectAccessible(page, 'integrations with a generated secret')
    await context.close()
  })

  test('an archived project offers no recording, an old link to record into it records into no project, its sessions name it', async ({ browser }) => {
    const { server } = served
    const { context, cookie } = await workspaceContext(browser, served, 'archived')
    const project = await callJson(server, 'POST', '/v1/projects', cookie, { name: 'Old launch' })
    const earlier = await callJson(server, 'POST', '/v1/sessions', cookie, { captureMode: 'microphone', title: 'Kickoff', projectId: project.id })
    await callJson(server, 'POST', `/v1/sessions/${earlier.id}/end`, cookie, {})
    await callJson(server, 'PATCH', `/v1/projects/${project.id}`, cookie, { status: 'archived' })
    const page = await context.newPage()
    // A session of the archived project names it (the select showed the project's id).
    await page.goto(`${server.baseUrl}/sessions/${earlier.id}`)
    await expect(page.getByLabel('Project', { exact: true }).locator('option:checked')).toHaveText('Old launch (Archived)')
    await page.goto(`${server.baseUrl}/projects/${project.id}`)
    await expect(page.getByRole('link', { name: 'Project memory' })).toBeVisible()
    await expect(page.getByRole('link', { name: 'Record a meeting in this project' })).toHaveCount(0)
    // The page said "No project" but sent the archived project's id.
    await page.goto(`${server.baseUrl}/record?project=${project.id}`)
    await expect(page.getByLabel('Project (optional)')).toHaveValue('')
    await page.getByRole('button', { name: 'Start recording' }).click()
    await expect(page.getByTestId('chunk-status')).toBeVisible()
    const session = (await callJson(server, 'GET', '/v1/sessions', cookie)).find((row: { id: string }) => row.id !== earlier.id)
    expect(session.projectId).toBeUndefined()
    await page.getByRole('button', { name: 'End the meeting' }).click()
    await expect(page).toHaveURL(/\/sessions\/ses_/, { timeout: 30_000 })
    await context.close()
  })

  test('an invitation opened while signed in as someone else says so and offers to sign out', async ({ browser }) => {
    const { server } = served
    const { context: ownerContext, cookie } = await workspaceContext(browser, served, 'inviter')
    const invited = uniqueEmail('invited')
    const invitation = await callJson(server, 'POST', '/v1/workspace/invitations', cookie, { email: invited })
    await ownerContext.close()
    const { context } = await workspaceContext(browser, served, 'bystander')
    const page = await context.newPage()
    await page.goto(invitation.inviteURL)
    await expect(page.getByTestId('invite-other-account')).toContainText(`but this invitation is for ${invited}`)
    await expect(page.getByRole('button', { name: /^Join/ })).toHaveCount(0)
    await page.getByRole('button', { name: 'Sign out' }).click()
    await expect(page.getByText(`Sign in as ${invited} to join.`)).toBeVisible()
    await context.close()
  })

  test('an empty projects page says what a project is; an unknown project\'s memory page is titled; a person names themselves; a mistyped address says so', async ({ browser }) => {
    const { server } = served
    const { context, cookie } = await workspaceContext(browser, served, 'empty-projects')
    const page = await context.newPage()
    await page.goto(`${server.baseUrl}/projects`)
    await expect(page.getByText('No project yet. A project groups meetings, their work and what they decided.')).toBeVisible()
    await page.goto(`${server.baseUrl}/projects/prj_01JAAAAAAAAAAAAAAAAAAAAAAA/memory`)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Memory')
    await expect(page.getByText('That could not be found.', { exact: false })).toBeVisible()

    // The members page is where a person gives the name colleagues see (there was no way to).
    const me = await callJson(server, 'GET', '/v1/account/current', cookie)
    await page.goto(`${server.baseUrl}/members`)
    await expect(page.getByText('You have not given a name yet: your colleagues see your email address.')).toBeVisible()
    await expectAccessible(page, 'members with your name')
    await page.getByLabel('Name shown to your colleagues').fill('Ada Lovelace')
    await page.getByRole('button', { name: 'Save' }).click()
    await expect(page.getByRole('status')).toHaveText('Saved.')
    await expect(page.locator('li').filter({ hasText: me.account.email })).toHaveText(`Ada Lovelace · ${me.account.email} · Owner · Can edit`)
    expect((await callJson(server, 'GET', '/v1/account/current', cookie)).account.name).toBe('Ada Lovelace')

    // A mistyped address is a page that says so (it was the API's raw 404 JSON).
    const response = await page.goto(`${server.baseUrl}/sesions`)
    expect(response?.status()).toBe(404)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('No such page')
    await page.getByRole('main').getByRole('link', { name: 'Sessions' }).click()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sessions')
    await context.close()
  })
})
