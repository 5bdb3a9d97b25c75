// Memory and voice screens: two meetings of a project decide contradicting things (through the
// API); the memory page shows the conflict, settles it, answers a question with cited sources;
// the voice page and a session's speakers are reachable; each new page passes the axe scan.
import { expect, test } from '@playwright/test'
import { callJson } from '../e2e/server.ts'
import { connectSocket } from '../ws-client.ts'
import { expectAccessible, serveWithMail, workspaceContext } from './helpers.ts'

test.describe('memory and voice', () => {
  const served = serveWithMail('sqlite')

  test('a conflict is seen and settled, a question gets a cited answer, the voice page opens', async ({ browser }) => {
    const { server } = served
    test.setTimeout(90_000)
    const { context, cookie } = await workspaceContext(browser, served, 'groups-b')
    const project = await callJson(server, 'POST', '/v1/projects', cookie, { name: 'Website relaunch' })

    /** A meeting of the project, its lines sent as transcript segments; lines 1 and 2 are its decisions. */
    const meeting = async (title: string, lines: string[], decisions: string[]) => {
      const session = await callJson(server, 'POST', '/v1/sessions', cookie, { captureMode: 'microphone', title, projectId: project.id })
      const socket = connectSocket(session.websocketURL, { cookie, origin: server.baseUrl })
      await socket.waitFor((message) => message.type === 'hello')
      const ids = lines.map((_line, index) => `${title.toLowerCase()}-seg-${index}`)
      lines.forEach((text, index) => socket.send({ type: 'transcript.segment', data: { id: ids[index], text, startMs: index * 4000, endMs: index * 4000 + 3500, speakerId: 'spk_1' } }))
      await expect.poll(() => socket.messages.filter((message) => message.type === 'transcript.final').length, { timeout: 20_000 }).toBeGreaterThanOrEqual(lines.length)
      await socket.close()
      const finals = await callJson(server, 'GET', `/v1/sessions/${session.id}/transcript`, cookie)
      for (const [index, decision] of decisions.entries()) {
        const segment = finals.segments.find((row: { text: string }) => row.text === lines[index + 1])
        await callJson(server, 'POST', `/v1/sessions/${session.id}/workobjects`, cookie, { kind: 'decision', title: decision, sourceSegmentIds: [segment.id] })
      }
      await callJson(server, 'POST', `/v1/sessions/${session.id}/end`, cookie, {})
      return session
    }
    const kickoff = await meeting('Kickoff', ['Welcome everyone to the kickoff.', 'We decided the website relaunch date is March 3.', 'The newsletter goes out on Monday.'],
      ['Website relaunch date is March 3', 'Newsletter send day is Monday'])
    await meeting('Steering', ['Quick update from engineering.', 'We decided the website relaunch date is April 14.', 'The newsletter goes out on Thursday.'],
      ['Website relaunch date is April 14', 'Newsletter send day is Thursday'])

    // The memory derives in the background: wait until both conflicts are there.
    const memoryPath = `/v1/projects/${project.id}/memory`
    await expect.poll(async () => (await callJson(server, 'GET', memoryPath, cookie)).conflicts.length, { timeout: 30_000 }).toBe(2)

    const page = await context.newPage()
    await page.goto(`${server.baseUrl}/projects/${project.id}`)
    await page.getByRole('link', { name: 'Project memory' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Memory of Website relaunch' })).toBeVisible()
    await expect(page.getByTestId('conflict')).toHaveCount(2)
    await expect(page.locator('[data-testid=memory-entry][data-status=in-conflict]')).toHaveCount(4)
    await expectAccessible(page, 'project memory with conflicts')

    // Someone else settles the newsletter conflict while the page is open: the 409 is a sentence and the page refreshes.
    const newsletter = (await callJson(server, 'GET', memoryPath, cookie)).conflicts.find((row: { sides: { statement: string }[] }) => row.sides[0]!.statement.startsWith('Newsletter'))
    await callJson(server, 'POST', `${memoryPath}/conflicts/${newsletter.id}/resolve`, cookie, { resolution: 'dismiss' })
    const stale = page.getByTestId('conflict').filter({ hasText: 'Newsletter send day' })
    await stale.getByLabel(/Dismiss/).check()
    await stale.getByRole('button', { name: 'Settle the conflict' }).click()
    await expect(page.getByRole('alert')).toHaveText('Someone else settled this conflict a moment ago. The page now shows it as it is.')
    await expect(page.getByTestId('conflict')).toHaveCount(1)

    const conflict = page.getByTestId('conflict')
    await expect(conflict).toContainText('Website relaunch date is March 3')
    await expect(conflict).toContainText('Website relaunch date is April 14')

    // A source opens the session at its segment.
    await conflict.getByText('Sources (', { exact: false }).first().click()
    const sourceLink = conflict.getByRole('link', { name: /^Transcript/ }).first()
    await expect(sourceLink).toHaveAttribute('href', new RegExp(`^/sessions/${kickoff.id}\\?segment=`))

    // Keep the later decision, with the keyboard.
    await conflict.getByLabel(/Keep side 2/).focus()
    await page.keyboard.press('Space')
    await conflict.getByRole('button', { name: 'Settle the conflict' }).click()
    await expect(page.getByTestId('conflict')).toHaveCount(0)
    await expect(page.getByText('No open conflicts.')).toBeVisible()
    await expect(page.locator('[data-testid=memory-entry][data-status=current]').filter({ hasText: 'Website relaunch date is April 14' })).toHaveCount(1)
    await expect(page.locator('[data-testid=memory-entry][data-status=superseded]').filter({ hasText: 'Website relaunch date is March 3' })).toHaveCount(1)

    // Ask: the answer cites its sources.
    await page.getByRole('searchbox', { name: 'Question' }).fill('When is the website relaunch date?')
    await page.getByRole('button', { name: 'Ask', exact: true }).click()
    const sentence = page.getByTestId('answer-sentence').first()
    await expect(sentence).toContainText('April 14')
    await expect(sentence.getByRole('link').first()).toBeVisible()
    await expectAccessible(page, 'project memory with an answer')

    // A question nothing answers says so plainly.
    await page.getByRole('searchbox', { name: 'Question' }).fill('What colour is the office kettle in Reykjavik?')
    await page.getByRole('button', { name: 'Ask', exact: true }).click()
    await expect(page.getByTestId('no-evidence')).toBeVisible()

    // Memory across the workspace.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Memory' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Memory' })).toBeVisible()
    await expectAccessible(page, 'memory home')

    // The session page lists its speakers (segments sent over the socket carry a bare speaker id, so
    // there is no session speaker to opt out here; the opt-out is for speakers the session knows).
    await page.goto(`${server.baseUrl}/sessions/${kickoff.id}`)
    await expect(page.getByTestId('speaker').first()).toContainText(/Speaker|spk_1/)

    // A suggestion to confirm: the engine's near match arrives with the transcript (a synthetic one
    // here, since socket segments have no voice; the server side is src/modules/voice/confirm.test.ts),
    // and confirming it PATCHes the voice identity with `confirmSpeaker` and names the speaker.
    await page.route('**/v1/sessions/*/transcript*', async (route) => {
      const response = await route.fetch()
      const body = await response.json()
      body.speakers = [{ speakerId: 'spk_1', label: 'Speaker 1', voice: { state: 'suggested', suggestion: { identityId: 'vid_suggested', displayName: 'Ada Lovelace', score: 0.7 } } }]
      await route.fulfill({ response, json: body })
    })
    let confirmed: unknown
    await page.route('**/v1/workspace/voice-identities/vid_suggested', async (route) => {
      confirmed = route.request().postDataJSON()
      await route.fulfill({ json: { id: 'vid_suggested', displayName: 'Ada Lovelace', sessionSpeakers: [] } })
    })
    await page.reload()
    await expect(page.getByTestId('speaker-suggestion')).toContainText('Sounds like Ada Lovelace. Is it?')
    await expectAccessible(page, 'session speaker suggestion')
    await page.getByRole('button', { name: 'Yes, it is Ada Lovelace' }).click()
    await expect(page.getByRole('status').filter({ hasText: 'Named Ada Lovelace.' })).toBeVisible()
    expect(confirmed).toEqual({ confirmSpeaker: { sessionId: kickoff.id, speakerId: 'spk_1' } })
    await expect(page.getByTestId('speaker').first()).toContainText('Ada Lovelace')
    await expect(page.getByTestId('speaker-suggestion')).toHaveCount(0)
    await expect(page.locator('.speaker').filter({ hasText: 'Ada Lovelace' }).first()).toBeVisible()
    await page.unrouteAll()

    // The voice page: status, and the consent step of an enrollment.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Voice' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Voice profile' })).toBeVisible()
    await expect(page.getByTestId('voice-status')).toHaveAttribute('data-status', 'not-enrolled')
    await expectAccessible(page, 'voice profile')
    await page.getByRole('button', { name: 'Create a voice profile' }).click()
    await page.getByLabel(/I agree/).check()
    await page.getByRole('button', { name: 'Start' }).click()
    await expect(page.getByTestId('enroll-progress')).toContainText('0 of')
    await expectAccessible(page, 'voice enrollment')
    // One utterance from the fake microphone (the synthesized meeting): its embedding is computed in the page.
    await page.getByRole('button', { name: 'Record an utterance' }).click()
    await page.waitForTimeout(3500)
    await page.getByRole('button', { name: 'Stop' }).click()
    await expect(page.getByTestId('enroll-progress')).toContainText('1 of 3')

    // At phone width the memory page has no horizontal scroll.
    await page.setViewportSize({ width: 375, height: 740 })
    await page.goto(`${server.baseUrl}/projects/${project.id}/memory`)
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth + 1')).toBe(true)
    await context.close()
  })
})
