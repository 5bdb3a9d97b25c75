// What a new user met on a fourth pass: naming the speakers of a recorded meeting left the takeover
// summary saying "— Speaker 1" with no hint that it was out of date, and the summary's headline and
// block titles ("1 action, 1 decision.", "Actions") stayed English in the Chinese interface (the
// server writes them in the meeting's language); a chat model's brief was never shown at all.
// "Heard as owner: Speaker 2" stayed English in Chinese (other default labels read "发言人 2"), and
// a card's quote of the meeting kept "Speaker 1:" beside a transcript that named her.
// A notification about one work object opened its session at the top, a long page away from the
// item; "Bob joined the workspace" opened nothing. A search hit in a transcript opened the meeting
// at its top, not at the words found, and did not say when the meeting was. A meeting's page said
// "Ready" and nothing of when it was or how long it lasted; an empty sessions list said only
// "Nothing here yet.". The work board showed neither due dates (nor that one had passed) nor
// blocked work, and a card opened its meeting at the top. An invitation made on a server without
// mail showed a link with no word that it had not been emailed, and neither it nor a share link
// could be copied but by selecting the text. While recording, the page showed a red dot and
// "37 chunks recorded, 0 waiting to upload": no running time, and a word of the implementation.
// An untitled meeting was named "Meeting on 2026-11-25 09:02 UTC", English and UTC in any language,
// and the recording screen did not say which project it recorded into.
// Offline, a page opened said "Loading…" for good, nothing said the connection was down, and it
// stayed so after the connection came back. An answer to "Who sends the release notes?" cited
// "[1] Transcript 0:24" — neither who said it nor in which meeting. A project's page listed its
// members but had no way to add a colleague (the API has one). A meeting recorded elsewhere (a
// voice memo, a call's export) could only reach Confer through the API. A shared meeting's work
// said only its stage: not who was heard taking it on, nor by when, nor that it was still a proposal.
// At phone width the navigation stacked into nine lines: a third of the screen before any content.
// A meeting could be neither renamed nor archived from its page (the API does both). An invitation
// could make neither an admin nor a member of a project, though the API takes both. The board
// mixed every project's work with no way to see one project's. Work the meeting heard a member
// take on ("Sam, can you…") named them but took the assign menu to give it to them.
import { expect, test, type Page } from '@playwright/test'
import { MEETING_WAV } from '../../playwright.config.ts'
import { callJson, type RunningServer } from '../e2e/server.ts'
import { connectSocket } from '../ws-client.ts'
import { expectAccessible, serveWithMail, signInContext, uniqueEmail, workspaceContext } from './helpers.ts'

/** A meeting of client-side speakers, ended and processed. */
async function spokenMeeting(server: RunningServer, cookie: string, title: string, lines: [string, string][], projectId?: string) {
  const session = await callJson(server, 'POST', '/v1/sessions', cookie, { captureMode: 'microphone', title, ...(projectId ? { projectId } : {}) })
  const socket = connectSocket(session.websocketURL, { cookie, origin: server.baseUrl })
  await socket.waitFor((message) => message.type === 'hello')
  lines.forEach(([speakerId, text], index) => socket.send({ type: 'transcript.segment', data: { id: `${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-seg-${index}`, text, startMs: index * 4000, endMs: index * 4000 + 3500, speakerId } }))
  await expect.poll(() => socket.messages.filter((message) => message.type === 'transcript.final').length, { timeout: 20_000 }).toBeGreaterThanOrEqual(lines.length)
  await socket.close()
  await callJson(server, 'POST', `/v1/sessions/${session.id}/end`, cookie, {})
  await expect.poll(async () => (await callJson(server, 'GET', `/v1/sessions/${session.id}`, cookie)).state, { timeout: 30_000 }).toBe('ready')
  return session as { id: string; conversationId: string }
}

/** The meeting's work is found from all of its segments (its owners heard included). */
async function workFound(server: RunningServer, cookie: string, session: { id: string }, segments: number) {
  await expect.poll(async () => {
    const refinement = await callJson(server, 'GET', `/v1/sessions/${session.id}/work-refinement`, cookie)
    return refinement.state === 'ready' && refinement.segmentsProcessed >= segments
  }, { timeout: 30_000 }).toBe(true)
}

/** The meeting's takeover summary is made. */
async function summaryReady(server: RunningServer, cookie: string, session: { conversationId: string }) {
  await expect.poll(async () => {
    const sets = await callJson(server, 'GET', `/v1/conversations/${session.conversationId}/workset`, cookie)
    const id = sets.workSets[0]?.id
    return id ? (await callJson(server, 'GET', `/v1/worksets/${id}`, cookie)).takeoverState : 'none'
  }, { timeout: 30_000 }).toBe('ready')
}

const summaryOf = (page: Page) => page.getByRole('region', { name: /Takeover summary|交接摘要/ })

test.describe('a new user\'s fourth pass', () => {
  const served = serveWithMail('sqlite', { JOB_POLL_INTERVAL_MS: '100' })

  test('naming a speaker outdates the summary that names them; its headline and titles are the reader\'s language', async ({ browser }) => {
    test.setTimeout(90_000)
    const { server } = served
    const { context, cookie } = await workspaceContext(browser, served, 'summary-speaker')
    const session = await spokenMeeting(server, cookie, 'Client call', [['spk_1', 'Can you send the numbers to the client?'], ['spk_2', 'Sure, I will send them by Friday.']])
    await summaryReady(server, cookie, session)
    // The summary may have been made before the work found its owner: made again once it has.
    await workFound(server, cookie, session, 2)
    await callJson(server, 'PATCH', `/v1/sessions/${session.id}/workset`, cookie, { action: 'takeover.refresh', idempotencyKey: crypto.randomUUID() })
    await summaryReady(server, cookie, session)

    const page = await context.newPage()
    await page.goto(`${server.baseUrl}/sessions/${session.id}`)
    const summary = summaryOf(page)
    await expect(summary.getByRole('listitem').filter({ hasText: 'Send the numbers to the client' })).toContainText('— Speaker 2')
    await expect(page.getByTestId('takeover-outdated')).toHaveCount(0)
    // The default label is the reader's language, in the summary and as the owner heard.
    await page.getByLabel('Language').selectOption('zh-Hans')
    await expect(summary.getByRole('listitem').filter({ hasText: 'Send the numbers to the client' })).toContainText('— 发言人 2')
    await expect(page.getByTestId('work-object').filter({ hasText: 'Send the numbers to the client' }).locator('.meta')).toContainText('会议中提到的负责人：发言人 2')
    await page.getByLabel('语言').selectOption('en')

    await callJson(server, 'PATCH', `/v1/sessions/${session.id}/speakers/spk_2`, cookie, { name: 'Dana Li' })
    await page.reload()
    await expect(page.getByTestId('takeover-outdated')).toHaveText('The work has changed since this summary was made.')
    await page.getByRole('button', { name: 'Bring the summary up to date' }).click()
    await expect(summary.getByRole('listitem').filter({ hasText: 'Send the numbers to the client' })).toContainText('— Dana Li')
    await expect(page.getByTestId('takeover-outdated')).toHaveCount(0)
    await expect(page.getByTestId('takeover-headline')).toHaveText(/^1 action/)
    await expect(summary.getByRole('heading', { name: 'Actions' })).toBeVisible()
    await expectAccessible(page, 'session with its summary')

    // The card's quote of the meeting names its speaker as the transcript does now, here and shared.
    const card = page.getByTestId('work-object').filter({ hasText: 'Send the numbers to the client' })
    await expect(card.getByTestId('work-summary')).toHaveText(/^Speaker 1: Can you send the numbers to the client\?\nDana Li: Sure/)
    await callJson(server, 'PATCH', `/v1/sessions/${session.id}/speakers/spk_1`, cookie, { name: 'Sam Park' })
    await page.reload()
    await expect(card.getByTestId('work-summary')).toHaveText(/^Sam Park: Can you send the numbers to the client\?\nDana Li: Sure/)
    const { shareURL } = await callJson(server, 'GET', `/v1/sessions/${session.id}/share`, cookie)
    const reader = await browser.newContext()
    const shared = await reader.newPage()
    await shared.goto(shareURL)
    await expect(shared.locator('article', { hasText: 'Send the numbers to the client' }).getByTestId('work-summary')).toHaveText(/^Sam Park: Can you send the numbers to the client\?\nDana Li: Sure/)
    await reader.close()

    await page.getByLabel('Language').selectOption('zh-Hans')
    await expect(page.getByTestId('takeover-headline')).toHaveText(/^1 项行动/)
    await expect(summary.getByRole('heading', { name: '行动项' })).toBeVisible()
    await expect(summary).not.toContainText('Actions')
    await context.close()
  })

  test('a notification about a work object opens its session at that object; one about a new member opens the members', async ({ browser }) => {
    test.setTimeout(90_000)
    const { server } = served
    const owner = await workspaceContext(browser, served, 'notify-link-owner')
    const memberEmail = uniqueEmail('notify-link-member')
    const invitation = await callJson(server, 'POST', '/v1/workspace/invitations', owner.cookie, { email: memberEmail })
    const member = await browser.newContext()
    const memberCookie = await signInContext(member, server, served.mail, memberEmail)
    await callJson(server, 'POST', `/v1/invitations/${invitation.inviteURL.split('/invite/')[1]}/accept`, memberCookie, {})
    const memberId = (await callJson(server, 'GET', '/v1/account/current', memberCookie)).account.id
    const session = await callJson(server, 'POST', '/v1/sessions', owner.cookie, { captureMode: 'microphone', title: 'Weekly sync' })
    for (const title of ['Book the venue', 'Order the badges', 'Print the agenda']) await callJson(server, 'POST', `/v1/sessions/${session.id}/workobjects`, owner.cookie, { kind: 'action', title })
    const action = await callJson(server, 'POST', `/v1/sessions/${session.id}/workobjects`, owner.cookie, { kind: 'action', title: 'Send the report' })
    await callJson(server, 'POST', `/v1/workobjects/${action.id}/assignment`, owner.cookie, { action: 'assign', userId: memberId })

    const page = await member.newPage()
    await page.goto(`${server.baseUrl}/notifications`)
    await page.getByRole('link', { name: /assigned “Send the report” to you/ }).click()
    await expect(page).toHaveURL(`${server.baseUrl}/sessions/${session.id}?workObject=${action.id}`)
    const card = page.getByTestId('work-object').filter({ hasText: 'Send the report' })
    await expect(card).toHaveClass(/highlighted/)
    await expect(card).toBeInViewport()
    await expect(page.getByTestId('work-object').filter({ hasText: 'Book the venue' })).not.toHaveClass(/highlighted/)

    const ownerPage = await owner.context.newPage()
    await ownerPage.goto(`${server.baseUrl}/notifications`)
    await ownerPage.getByRole('link', { name: /joined the workspace/ }).click()
    await expect(ownerPage.getByRole('heading', { level: 1, name: 'Members' })).toBeVisible()
    await member.close()
    await owner.context.close()
  })

  test('a search hit in a transcript opens the meeting at the words found', async ({ browser }) => {
    test.setTimeout(90_000)
    const { server } = served
    const { context, cookie } = await workspaceContext(browser, served, 'search-hit')
    const lines: [string, string][] = Array.from({ length: 30 }, (_, index) => [index % 2 ? 'spk_2' : 'spk_1', `We went through item number ${index + 1} of the agenda.`])
    lines.push(['spk_1', 'The quarterly budget for marketing is forty thousand.'])
    const session = await spokenMeeting(server, cookie, 'Budget review', lines)
    const page = await context.newPage()
    await page.goto(`${server.baseUrl}/search?q=${encodeURIComponent('quarterly budget')}`)
    const hit = page.getByRole('listitem').filter({ hasText: 'Budget review' })
    await expect(hit).toContainText(/\d{4}/)
    await hit.getByRole('link', { name: /quarterly budget for marketing/ }).click()
    await expect(page).toHaveURL(new RegExp(`/sessions/${session.id}\\?segment=`))
    const said = page.locator('li[data-status]', { hasText: 'The quarterly budget for marketing is forty thousand.' })
    await expect(said).toHaveClass(/highlighted/)
    await expect(said).toBeInViewport()
    await context.close()
  })

  test('a meeting says when it was and how long it lasted; an empty list says what comes there', async ({ browser }) => {
    test.setTimeout(90_000)
    const { server } = served
    const { context, cookie } = await workspaceContext(browser, served, 'when')
    const page = await context.newPage()
    await page.goto(`${server.baseUrl}/`)
    await expect(page.getByTestId('sessions-empty')).toContainText('No meeting recorded yet.')
    const project = await callJson(server, 'POST', '/v1/projects', cookie, { name: 'Launch' })
    await page.goto(`${server.baseUrl}/projects/${project.id}`)
    await expect(page.getByTestId('sessions-empty')).toContainText('No meeting in this project yet')

    const session = await spokenMeeting(server, cookie, 'Standup', [['spk_1', 'Yesterday I finished the login page.']])
    const { startedAt } = await callJson(server, 'GET', `/v1/sessions/${session.id}`, cookie)
    await page.goto(`${server.baseUrl}/sessions/${session.id}`)
    const year = new Date(startedAt).getFullYear()
    await expect(page.getByTestId('session-when')).toHaveText(new RegExp(`^\\w{3} \\d{1,2}, ${year}, .* · \\d+ (s|min)$`))
    await page.goto(`${server.baseUrl}/`)
    await expect(page.getByRole('listitem').filter({ hasText: 'Standup' })).toContainText(/ · \d+ (s|min) · Ready/)
    await page.getByLabel('Language').selectOption('zh-Hans')
    await expect(page.getByRole('listitem').filter({ hasText: 'Standup' })).toContainText(/ · \d+ (秒|分钟) · 已完成/)
    await context.close()
  })

  test('the board says when work is due, what is overdue or blocked, and opens the item', async ({ browser }) => {
    test.setTimeout(90_000)
    const { server } = served
    const { context, cookie } = await workspaceContext(browser, served, 'board-due')
    const session = await callJson(server, 'POST', '/v1/sessions', cookie, { captureMode: 'microphone', title: 'Planning' })
    const late = await callJson(server, 'POST', `/v1/sessions/${session.id}/workobjects`, cookie, { kind: 'action', title: 'Renew the certificate' })
    const later = await callJson(server, 'POST', `/v1/sessions/${session.id}/workobjects`, cookie, { kind: 'action', title: 'Plan the offsite' })
    const stuck = await callJson(server, 'POST', `/v1/sessions/${session.id}/workobjects`, cookie, { kind: 'action', title: 'Migrate the database' })
    for (const [wo, dueDate] of [[late, '2020-01-15'], [later, '2099-06-01']] as const) {
      await callJson(server, 'PATCH', `/v1/workobjects/${wo.id}`, cookie, { expectedRevisionHash: wo.revisionHash, content: { title: wo.title }, dueDate })
    }
    await callJson(server, 'PATCH', `/v1/workobjects/${stuck.id}/responsibility`, cookie, { expectedResponsibilityUpdatedAt: stuck.responsibility.updatedAt, state: 'blocked', blockedReason: 'Waiting for the vendor' })

    const page = await context.newPage()
    await page.goto(`${server.baseUrl}/board`)
    const card = (title: string) => page.getByTestId('board-card').filter({ hasText: title })
    await expect(card('Renew the certificate').getByTestId('board-due')).toHaveText('Overdue: was due Jan 15, 2020')
    await expect(card('Renew the certificate').getByTestId('board-due')).toHaveClass('overdue')
    await expect(card('Plan the offsite').getByTestId('board-due')).toHaveText('Due Jun 1, 2099')
    await expect(card('Migrate the database').getByTestId('board-progress')).toHaveText('Blocked')
    await expectAccessible(page, 'board with due dates')
    await card('Plan the offsite').getByRole('link').click()
    await expect(page).toHaveURL(`${server.baseUrl}/sessions/${session.id}?workObject=${later.id}`)
    await expect(page.getByTestId('work-object').filter({ hasText: 'Plan the offsite' })).toHaveClass(/highlighted/)
    await context.close()
  })

  test('an invitation not mailed says to send its link; invitation and share links are copied with a button', async ({ browser }) => {
    test.setTimeout(90_000)
    const { server } = served
    const { context, cookie } = await workspaceContext(browser, served, 'copy')
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl })
    const page = await context.newPage()
    await page.goto(`${server.baseUrl}/members`)
    // This server mails (the test's SMTP sink): the page says so.
    await page.getByLabel('Their email address').fill(uniqueEmail('copy-guest'))
    await page.getByRole('button', { name: 'Create invitation' }).click()
    await expect(page.getByTestId('invite-delivery')).toHaveText('The invitation was emailed.')
    const link = await page.getByTestId('invite-url').inputValue()
    await page.getByRole('button', { name: 'Copy: Invitation link (works once)' }).click()
    await expect(page.getByText('Copied.')).toBeVisible()
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(link)
    await expectAccessible(page, 'members with an invitation link')
    // Where it was not mailed (no SMTP_URL, or sending failed: `delivery: link`), the page says whom to send it to.
    await page.route('**/api/v1/workspace/invitations', async (route) => {
      const response = await route.fetch()
      await route.fulfill({ response, json: { ...(await response.json()), delivery: 'link' } })
    })
    const guest = uniqueEmail('copy-unmailed')
    await page.getByLabel('Their email address').fill(guest)
    await page.getByRole('button', { name: 'Create invitation' }).click()
    await expect(page.getByTestId('invite-delivery')).toHaveText(`The invitation was not emailed (this server has no mail set up, or sending failed): send this link to ${guest} yourself.`)

    const session = await callJson(server, 'POST', '/v1/sessions', cookie, { captureMode: 'microphone', title: 'Review' })
    await page.goto(`${server.baseUrl}/sessions/${session.id}`)
    await page.getByRole('button', { name: 'Create a share link' }).click()
    const shareURL = await page.getByTestId('share-url').inputValue()
    await page.getByRole('button', { name: 'Copy: Share link' }).click()
    await expect(page.getByText('Copied.')).toBeVisible()
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(shareURL)
    await context.close()
  })

  test('while recording, the page says for how long and whether the audio is saved', async ({ browser }) => {
    test.setTimeout(90_000)
    const { server } = served
    const { context, cookie } = await workspaceContext(browser, served, 'elapsed')
    const project = await callJson(server, 'POST', '/v1/projects', cookie, { name: 'Mobile app' })
    const page = await context.newPage()
    await page.goto(`${server.baseUrl}/record?project=${project.id}`)
    // This server takes transcripts from the browser only (STT_ENGINE=client): an upload would get none.
    await expect(page.getByTestId('upload-no-engine')).toContainText('so an uploaded recording would get no transcript')
    await expect(page.getByRole('button', { name: 'Upload and transcribe' })).toBeDisabled()
    await page.getByRole('button', { name: 'Start recording' }).click()
    // Untitled, it is named by when it started, as the reader writes dates (not "Meeting on … UTC").
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Meeting of [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s?[AP]M$/)
    await expect(page.getByTestId('recording-project')).toHaveText('Recording into the project Mobile app.')
    const elapsed = page.getByTestId('elapsed')
    await expect(elapsed).toHaveText(/^Recording · 0:0[2-9]$/, { timeout: 15_000 })
    await expect(page.getByTestId('chunk-status')).toHaveText(/^(Everything recorded so far is saved on the server\.|\d+ s of audio kept in this browser, waiting to upload\.)$/)
    await expect(page.getByTestId('chunk-status')).toHaveText('Everything recorded so far is saved on the server.', { timeout: 15_000 })
    await expect(page.locator('.recording')).not.toContainText('chunk')
    await expectAccessible(page, 'recording')
    await page.getByLabel('Language').selectOption('zh-Hans')
    await expect(elapsed).toHaveText(/^录制中 · \d+:\d{2}$/)
    await page.getByRole('button', { name: '结束会议' }).click()
    await expect(page).toHaveURL(/\/sessions\/ses_/, { timeout: 30_000 })
    await context.close()
  })

  test('offline is said on every page; what failed meanwhile loads once the connection is back', async ({ browser }) => {
    const { server } = served
    const { context } = await workspaceContext(browser, served, 'offline')
    const page = await context.newPage()
    await page.goto(`${server.baseUrl}/board`)
    await expect(page.getByTestId('board-empty')).toBeVisible()
    const banner = page.getByTestId('offline-banner')
    await expect(banner).toHaveCount(0)
    await context.setOffline(true)
    await expect(banner).toContainText('You are offline.')
    await page.getByRole('link', { name: 'Projects' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Projects' })).toBeVisible()
    await expect(banner).toContainText('You are offline.')
    await context.setOffline(false)
    await expect(banner).toHaveCount(0)
    await expect(page.getByText('No project yet.')).toBeVisible()
    await context.close()
  })

  test('an answer\'s transcript source says which meeting and who said it', async ({ browser }) => {
    test.setTimeout(90_000)
    const { server } = served
    const { context, cookie } = await workspaceContext(browser, served, 'answer-speaker')
    const session = await spokenMeeting(server, cookie, 'Release planning', [['spk_1', 'Can you update the release notes for marketing?'], ['spk_2', 'I will send the release notes to marketing by Friday.']])
    await callJson(server, 'PATCH', `/v1/sessions/${session.id}/speakers/spk_2`, cookie, { name: 'Dana Li' })
    const page = await context.newPage()
    await page.goto(`${server.baseUrl}/memory`)
    await page.getByRole('searchbox', { name: 'Question' }).fill('Who sends the release notes to marketing?')
    await page.getByRole('button', { name: 'Ask' }).click()
    const source = page.getByTestId('answer').getByRole('link', { name: /Dana Li/ })
    await expect(source).toHaveText(/^\[\d\] Transcript · Release planning · Dana Li 0:04$/)
    await context.close()
  })

  test('a colleague of the workspace is added to a project from its page, and is told', async ({ browser }) => {
    test.setTimeout(90_000)
    const { server } = served
    const owner = await workspaceContext(browser, served, 'add-member-owner')
    const memberEmail = uniqueEmail('add-member-colleague')
    const invitation = await callJson(server, 'POST', '/v1/workspace/invitations', owner.cookie, { email: memberEmail })
    const member = await browser.newContext()
    const memberCookie = await signInContext(member, server, served.mail, memberEmail)
    await callJson(server, 'POST', `/v1/invitations/${invitation.inviteURL.split('/invite/')[1]}/accept`, memberCookie, {})
    await callJson(server, 'PATCH', '/v1/account/profile', memberCookie, { name: 'Sam Park' })
    const project = await callJson(server, 'POST', '/v1/projects', owner.cookie, { name: 'Mobile app' })

    const page = await owner.context.newPage()
    await page.goto(`${server.baseUrl}/projects/${project.id}`)
    const form = page.getByRole('form', { name: 'Add a colleague to this project' })
    await form.getByLabel('Workspace member').selectOption({ label: `Sam Park (${memberEmail})` })
    await form.getByLabel('Their working role').selectOption({ label: 'Engineering' })
    await form.getByRole('button', { name: 'Add to the project' }).click()
    await expect(form.getByRole('status')).toHaveText('Sam Park is in the project now (and was notified).')
    await expect(page.getByRole('listitem').filter({ hasText: 'Sam Park' })).toContainText('Engineering')
    await expect(form.getByTestId('add-member-none')).toContainText('Every member of the workspace is in this project.')
    await expectAccessible(page, 'project page with the add form')
    const members = await callJson(server, 'GET', `/v1/projects/${project.id}/members`, owner.cookie)
    expect(members.map((item: { name: string; primaryRole: string }) => [item.name, item.primaryRole])).toContainEqual(['Sam Park', 'engineering'])

    const memberPage = await member.newPage()
    await memberPage.goto(`${server.baseUrl}/notifications`)
    await expect(memberPage.getByTestId('notifications')).toContainText('Mobile app')
    await member.close()
    await owner.context.close()
  })

  test('a shared meeting\'s work says who was heard taking it on, by when, and whether it is still a proposal', async ({ browser }) => {
    test.setTimeout(90_000)
    const { server } = served
    const { context, cookie } = await workspaceContext(browser, served, 'share-meta')
    const session = await spokenMeeting(server, cookie, 'Client call', [['spk_1', 'Can you send the numbers to the client?'], ['spk_2', 'Sure, I will send them by Friday.']])
    await workFound(server, cookie, session, 2)
    const { shareURL } = await callJson(server, 'GET', `/v1/sessions/${session.id}/share`, cookie)
    const reader = await browser.newContext()
    const page = await reader.newPage()
    await page.goto(shareURL)
    const meta = page.locator('article', { hasText: 'Send the numbers to the client' }).getByTestId('shared-meta')
    await expect(meta).toContainText('proposed, not accepted yet')
    await expect(meta).toContainText('Heard as owner: Speaker 2')
    await expect(meta).toContainText(/Due [A-Z][a-z]{2} \d{1,2}, \d{4}/)
    await expectAccessible(page, 'shared meeting')
    await reader.close()
    await context.close()
  })

  test('at phone width the navigation is one line that scrolls, and every page is still reached', async ({ browser }) => {
    const { server } = served
    const { context } = await workspaceContext(browser, served, 'phone-nav')
    const page = await context.newPage()
    await page.setViewportSize({ width: 390, height: 844 })
    await page.goto(`${server.baseUrl}/board`)
    await expect(page.getByRole('heading', { level: 1, name: 'Work board' })).toBeVisible()
    const header = await page.locator('header.top').boundingBox()
    expect(header!.height).toBeLessThan(130)
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Notifications' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible()
    // Opened by its address, a page far along the line has its link scrolled into view.
    await page.goto(`${server.baseUrl}/billing`)
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Billing' })).toBeInViewport()
    await page.getByRole('button', { name: 'Sign out' }).click()
    await expect(page.getByRole('heading', { name: 'Sign in to Confer' })).toBeVisible()
    await context.close()
  })

  test('a meeting is renamed and archived from its page, and restored', async ({ browser }) => {
    const { server } = served
    const { context, cookie } = await workspaceContext(browser, served, 'rename')
    const session = await spokenMeeting(server, cookie, 'Meeting of Nov 25', [['spk_1', 'Welcome to the retro.']])
    const page = await context.newPage()
    await page.goto(`${server.baseUrl}/sessions/${session.id}`)
    await page.getByRole('button', { name: 'Rename' }).click()
    await page.getByLabel('Title of the meeting').fill('Sprint 14 retro')
    await page.getByRole('button', { name: 'Save' }).click()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sprint 14 retro')
    page.once('dialog', (dialog) => void dialog.accept())
    await page.getByRole('button', { name: 'Archive' }).click()
    await expect(page.getByTestId('session-archived')).toBeVisible()
    await expectAccessible(page, 'archived session')
    await page.goto(`${server.baseUrl}/`)
    await expect(page.getByTestId('sessions-empty')).toBeVisible()
    await page.goto(`${server.baseUrl}/sessions/${session.id}`)
    await page.getByRole('button', { name: 'Restore' }).click()
    await expect(page.getByTestId('session-archived')).toHaveCount(0)
    await page.goto(`${server.baseUrl}/`)
    await expect(page.getByRole('link', { name: 'Sprint 14 retro' })).toBeVisible()
    await context.close()
  })

  test('an invitation can make an admin and bring them into a project', async ({ browser }) => {
    const { server } = served
    const { context, cookie } = await workspaceContext(browser, served, 'invite-admin')
    const project = await callJson(server, 'POST', '/v1/projects', cookie, { name: 'Checkout redesign' })
    const page = await context.newPage()
    await page.goto(`${server.baseUrl}/members`)
    const guest = uniqueEmail('invite-admin-guest')
    await page.getByLabel('Their email address').fill(guest)
    await page.getByLabel('Access').selectOption({ label: 'Admin' })
    await page.getByLabel('Also join a project (optional)').selectOption({ label: 'Checkout redesign' })
    await page.getByRole('button', { name: 'Create invitation' }).click()
    await expect(page.getByTestId('invite-url')).toBeVisible()
    await expectAccessible(page, 'members with the invitation choices')
    const { invitations } = await callJson(server, 'GET', '/v1/workspace/members', cookie)
    expect(invitations.find((item: { email: string }) => item.email === guest)).toMatchObject({ accessRole: 'admin', projectId: project.id })
    const link = await page.getByTestId('invite-url').inputValue()
    const invitee = await browser.newContext()
    const invitePage = await invitee.newPage()
    await invitePage.goto(link)
    await expect(invitePage.getByText('You will join the project Checkout redesign.')).toBeVisible()
    await invitee.close()
    await context.close()
  })

  test('the board shows one project\'s work, or the work of no project', async ({ browser }) => {
    const { server } = served
    const { context, cookie } = await workspaceContext(browser, served, 'board-project')
    const alpha = await callJson(server, 'POST', '/v1/projects', cookie, { name: 'Alpha' })
    await callJson(server, 'POST', '/v1/projects', cookie, { name: 'Beta' })
    const inAlpha = await callJson(server, 'POST', '/v1/sessions', cookie, { captureMode: 'microphone', title: 'Alpha sync', projectId: alpha.id })
    await callJson(server, 'POST', `/v1/sessions/${inAlpha.id}/workobjects`, cookie, { kind: 'action', title: 'Ship the alpha build' })
    await callJson(server, 'POST', `/v1/sessions/${inAlpha.id}/end`, cookie, {})
    const loose = await callJson(server, 'POST', '/v1/sessions', cookie, { captureMode: 'microphone', title: 'Hallway' })
    await callJson(server, 'POST', `/v1/sessions/${loose.id}/workobjects`, cookie, { kind: 'action', title: 'Book the offsite' })

    const page = await context.newPage()
    await page.goto(`${server.baseUrl}/board`)
    const cards = page.getByTestId('board-card')
    await expect(cards).toHaveCount(2)
    await page.getByLabel('Project').selectOption({ label: 'Alpha' })
    await expect(page).toHaveURL(`${server.baseUrl}/board?project=${alpha.id}`)
    await expect(cards).toHaveText([/Ship the alpha build/])
    await page.getByLabel('Project').selectOption({ label: 'Beta' })
    await expect(page.getByTestId('board-empty-project')).toHaveText('No accepted work in this project yet.')
    await page.getByLabel('Project').selectOption({ label: 'No project' })
    await expect(cards).toHaveText([/Book the offsite/])
    await expectAccessible(page, 'board of no project')
    await context.close()
  })

  test('work the meeting heard a member take on is assigned to them in one click', async ({ browser }) => {
    test.setTimeout(90_000)
    const { server } = served
    const owner = await workspaceContext(browser, served, 'assign-heard-owner')
    const memberEmail = uniqueEmail('assign-heard-sam')
    const invitation = await callJson(server, 'POST', '/v1/workspace/invitations', owner.cookie, { email: memberEmail })
    const member = await browser.newContext()
    const memberCookie = await signInContext(member, server, served.mail, memberEmail)
    await callJson(server, 'POST', `/v1/invitations/${invitation.inviteURL.split('/invite/')[1]}/accept`, memberCookie, {})
    await callJson(server, 'PATCH', '/v1/account/profile', memberCookie, { name: 'Sam Park' })
    const samId = (await callJson(server, 'GET', '/v1/account/current', memberCookie)).account.id
    const session = await spokenMeeting(server, owner.cookie, 'Client call', [['spk_1', 'Sam, can you send the numbers to the client by Friday?'], ['spk_2', 'Sure, I will send them.']])
    await workFound(server, owner.cookie, session, 2)

    const page = await owner.context.newPage()
    await page.goto(`${server.baseUrl}/sessions/${session.id}`)
    const card = page.getByTestId('work-object').filter({ hasText: 'Send the numbers to the client' })
    await card.getByRole('button', { name: 'Accept' }).click()
    await card.getByRole('button', { name: 'Assign to Sam Park' }).click()
    await expect(card.locator('.meta')).toContainText('Owner: Sam Park')
    await expect(card.getByTestId('assign-heard')).toHaveCount(0)
    const { workSets } = await callJson(server, 'GET', `/v1/conversations/${session.conversationId}/workset`, owner.cookie)
    const set = await callJson(server, 'GET', `/v1/worksets/${workSets[0].id}`, owner.cookie)
    expect(set.workObjects.find((wo: { title: string }) => wo.title.startsWith('Send the numbers')).ownerId).toBe(samId)
    await member.close()
    await owner.context.close()
  })
})


test.describe('a new user\'s fourth pass, with speech recognition on the server', () => {
  const served = serveWithMail('sqlite', { STT_ENGINE: 'pocketsphinx', JOB_POLL_INTERVAL_MS: '100' })

  test('a recording made elsewhere is uploaded from the record page and transcribed; a file without audio is refused', async ({ browser }) => {
    test.setTimeout(180_000)
    const { server } = served
    const { context, cookie } = await workspaceContext(browser, served, 'upload')
    const project = await callJson(server, 'POST', '/v1/projects', cookie, { name: 'Launch' })
    const page = await context.newPage()
    await page.goto(`${server.baseUrl}/record?project=${project.id}`)
    const form = page.getByRole('form', { name: 'Or upload a recording' })
    await form.getByLabel('Recording file').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not audio at all') })
    await form.getByRole('button', { name: 'Upload and transcribe' }).click()
    await expect(form.getByRole('alert')).toHaveText('This browser cannot read the audio of “notes.txt”. Try another format (WAV, MP3, M4A, WebM or Ogg).')
    expect(await callJson(server, 'GET', '/v1/sessions', cookie)).toEqual([])
    await expectAccessible(page, 'record page with the upload form')

    await page.getByLabel('Title (optional)').fill('Weekly sync (phone recording)')
    await form.getByLabel('Recording file').setInputFiles(MEETING_WAV)
    await form.getByRole('button', { name: 'Upload and transcribe' }).click()
    await expect(page).toHaveURL(/\/sessions\/ses_/, { timeout: 60_000 })
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Weekly sync (phone recording)')
    await expect(page.getByTestId('session-state')).toHaveAttribute('data-state', 'ready', { timeout: 120_000 })
    await expect(page.getByTestId('transcript')).toContainText(/send the report/i)
    // Forgetting a voice says what it does (it read "Not me / opt out" beside every speaker, whoever reads).
    await expect(page.getByTestId('speaker').first().getByRole('button', { name: 'Stop recognising this voice' })).toBeVisible()
    const [session] = await callJson(server, 'GET', '/v1/sessions', cookie)
    expect(session).toMatchObject({ title: 'Weekly sync (phone recording)', projectId: project.id })
    await context.close()
  })
})
