// The web client's story on the real server process (the default engine, Moonshine, transcribing; mail over SMTP):
// a person signs in with the mailed code, records a spoken meeting from the fake microphone and
// watches its transcript arrive, ends it, accepts the extracted action and moves it to review; a
// colleague invited by link joins in a second browser, reviews it, and the first person sees the
// notification arrive; an anonymous visitor opens the share link and comments. Every page is
// scanned with axe (WCAG 2 A/AA); the screenshots in docs/screenshots come from here.
import { expect, test, type Page } from '@playwright/test'
import { databaseKinds } from '../databases.ts'
import { callJson } from '../e2e/server.ts'
import { expectAccessible, screenshot, serveWithMail, uniqueEmail } from './helpers.ts'

const unreadCount = async (page: Page) => Number(await page.getByTestId('unread-count').getAttribute('data-count').catch(() => '0') ?? 0)

for (const kind of databaseKinds) {
  test.describe(`web client story [${kind}]`, () => {
    const served = serveWithMail(kind, { STT_ENGINE: 'moonshine', JOB_POLL_INTERVAL_MS: '100' })

    test('sign in, record, settle the work, invite a reviewer, share', async ({ browser }) => {
      const { server, mail } = served
      const shots = kind === 'sqlite'
      const ownerContext = await browser.newContext()
      const page = await ownerContext.newPage()

      // Sign in with the code from the mail.
      await page.goto(server.baseUrl)
      await expect(page.getByRole('heading', { name: 'Sign in to Confer' })).toBeVisible()
      await expectAccessible(page, 'sign-in')
      await screenshot(page, 'sign-in', shots)
      const ownerEmail = uniqueEmail('owner')
      let seen = mail.messages.length
      await page.getByLabel('Email address').fill(ownerEmail)
      await page.getByRole('button', { name: 'Email me a code' }).click()
      await expect(page.getByText('We sent a 6-digit code')).toBeVisible()
      await expect(page.getByText('You can ask for at most 5 codes per hour (4 left).')).toBeVisible()
      await expectAccessible(page, 'sign-in code')
      await screenshot(page, 'sign-in-code', shots)
      await page.getByLabel('Digit 1 of 6').fill(await mail.codeFor(ownerEmail, seen))
      await expect(page.getByRole('heading', { name: 'Create your workspace' })).toBeVisible()
      await expectAccessible(page, 'workspace bootstrap')
      await page.getByLabel('Workspace name').fill('Northwind')
      await page.getByRole('button', { name: 'Create workspace' }).click()
      await expect(page.getByRole('heading', { name: 'Sessions' })).toBeVisible()
      const ownerCookie = (await ownerContext.cookies()).map((cookie) => `${cookie.name}=${cookie.value}`).join('; ')

      // Record the meeting the fake microphone plays; the transcript arrives while recording.
      await page.getByRole('link', { name: 'Record', exact: true }).click()
      await expect(page.getByRole('heading', { name: 'Record a meeting' })).toBeVisible()
      await expectAccessible(page, 'record')
      await screenshot(page, 'record', shots)
      await page.getByLabel('Title (optional)').fill('Weekly plan')
      await page.getByRole('button', { name: 'Start recording' }).click()
      await expect(page.getByRole('heading', { name: 'Weekly plan' })).toBeVisible()
      const live = page.getByTestId('transcript')
      await expect(live.locator('li[data-status=final]')).toHaveCount(4, { timeout: 90_000 })
      await expect(live).toContainText(/report/i)
      await expectAccessible(page, 'recording')
      await screenshot(page, 'recording', shots)
      await page.getByRole('button', { name: 'End the meeting' }).click()
      await expect(page).toHaveURL(/\/sessions\/ses_/, { timeout: 30_000 })
      const sessionUrl = page.url()
      await expect(page.getByTestId('session-state')).toHaveAttribute('data-state', 'ready', { timeout: 120_000 })

      // Accept the extracted action, take it and move it to review.
      const proposal = page.getByTestId('work-object').filter({ hasText: /report/i }).filter({ has: page.getByRole('button', { name: 'Accept' }) }).first()
      await expect(proposal).toBeVisible({ timeout: 30_000 })
      const title = (await proposal.locator('h3').innerText()).trim()
      await expectAccessible(page, 'session')
      await screenshot(page, 'session', shots)
      await proposal.getByRole('button', { name: 'Accept' }).click()
      const card = page.getByTestId('work-object').filter({ has: page.getByRole('heading', { name: title, exact: true }) })
      await card.getByRole('button', { name: 'Take it' }).click()
      await expect(card.getByRole('button', { name: 'Let go' })).toBeVisible()
      for (const stage of ['Structured', 'Executing', 'Ready for review']) {
        await card.getByRole('button', { name: `Move to ${stage}`, exact: true }).click()
        await expect(card.getByTestId('stage')).toHaveText(stage)
      }

      // Invite a colleague by link; they join in a second browser.
      await page.getByRole('link', { name: 'Members' }).click()
      const reviewerEmail = uniqueEmail('reviewer')
      await page.getByLabel('Their email address').fill(reviewerEmail)
      await page.getByRole('button', { name: 'Create invitation' }).click()
      const inviteURL = await page.getByTestId('invite-url').inputValue()
      expect(inviteURL).toMatch(new RegExp(`^${server.baseUrl}/invite/`))
      await expectAccessible(page, 'members')
      await screenshot(page, 'members', shots)

      const reviewerContext = await browser.newContext()
      const reviewer = await reviewerContext.newPage()
      await reviewer.goto(inviteURL)
      await expect(reviewer.getByRole('heading', { name: 'You are invited' })).toBeVisible()
      await expect(reviewer.getByText(`invited ${reviewerEmail} to the workspace Northwind`)).toBeVisible()
      await expectAccessible(reviewer, 'invitation')
      await screenshot(reviewer, 'invitation', shots)
      seen = mail.messages.length
      await expect(reviewer.getByLabel('Email address')).toHaveValue(reviewerEmail)
      await reviewer.getByRole('button', { name: 'Email me a code' }).click()
      await reviewer.getByLabel('Digit 1 of 6').fill(await mail.codeFor(reviewerEmail, seen))
      await reviewer.getByRole('button', { name: 'Join Northwind' }).click()
      await expect(reviewer.getByRole('heading', { name: 'Sessions' })).toBeVisible()
      const members = await callJson(server, 'GET', '/v1/workspace/members', ownerCookie)
      const reviewerId = members.members.find((member: { email: string }) => member.email === reviewerEmail).accountId as string

      // The owner designates the reviewer and requests review.
      await page.goto(sessionUrl)
      await card.getByLabel('Designate reviewer').selectOption(reviewerId)
      await expect(card).toContainText('No review requested (')
      await card.getByRole('button', { name: 'Request review' }).click()
      await expect(card).toContainText('Review requested')
      const ownerUnread = await unreadCount(page)

      // The reviewer's unread count rises live; they open the notification and approve.
      await expect(reviewer.getByTestId('unread-count')).toBeVisible()
      await reviewer.getByTestId('notifications-link').click()
      await expect(reviewer.locator('li[data-kind="review.requested"]')).toBeVisible()
      await expectAccessible(reviewer, 'notifications')
      await screenshot(reviewer, 'notifications', shots)
      await reviewer.locator('li[data-kind="review.requested"] a').click()
      const reviewCard = reviewer.getByTestId('work-object').filter({ has: reviewer.getByRole('heading', { name: title, exact: true }) })
      await reviewCard.getByRole('button', { name: 'Approve' }).click()
      await expect(reviewCard).toContainText('Approved')

      // The owner sees the decision arrive without reloading.
      await expect.poll(() => unreadCount(page), { timeout: 15_000 }).toBeGreaterThan(ownerUnread)
      await page.getByTestId('notifications-link').click()
      await expect(page.locator('li[data-kind="review.decided"]')).toContainText('Approved')

      // Share the session with comments; an anonymous visitor comments.
      await page.goto(sessionUrl)
      await page.getByRole('button', { name: 'Create a share link' }).click()
      await page.getByLabel('Let people with the link comment').click()
      await expect(page.getByLabel('Let people with the link comment')).toBeChecked()
      const shareURL = await page.getByTestId('share-url').inputValue()
      const anonymousContext = await browser.newContext()
      const visitor = await anonymousContext.newPage()
      await visitor.goto(shareURL)
      await expect(visitor.getByRole('heading', { name: 'Weekly plan' })).toBeVisible()
      await expect(visitor.getByText('You can read this meeting and comment on its work.')).toBeVisible()
      const shared = visitor.locator('article').filter({ has: visitor.getByRole('heading', { name: title, exact: true }) })
      await visitor.getByLabel('Your name (optional)').fill('Guest reader')
      await shared.getByLabel('Comment').fill('Looks good to me')
      await shared.getByRole('button', { name: 'Send' }).click()
      await expect(shared).toContainText('Looks good to me')
      await expect(shared).toContainText('Guest reader')
      await expectAccessible(visitor, 'share')
      await screenshot(visitor, 'share', shots)
      await visitor.goto(`${server.baseUrl}/share/not-a-real-token`)
      await expect(visitor.getByText('This share link has expired or was revoked.')).toBeVisible()

      // The other pages: board, projects, search; the session at phone width; Chinese.
      await page.getByRole('link', { name: 'Work board' }).click()
      await expect(page.getByRole('region', { name: 'Ready for review' })).toContainText(title)
      await expectAccessible(page, 'board')
      await screenshot(page, 'board', shots)
      await page.getByRole('link', { name: 'Projects' }).click()
      await page.getByLabel('Name', { exact: true }).fill('Spring launch')
      await page.getByRole('button', { name: 'Create project' }).click()
      await expect(page.getByRole('link', { name: 'Spring launch' })).toBeVisible()
      await expectAccessible(page, 'projects')
      await page.getByRole('link', { name: 'Spring launch' }).click()
      await expect(page.getByRole('heading', { name: 'Spring launch' })).toBeVisible()
      await expectAccessible(page, 'project')
      await page.getByRole('link', { name: 'Search' }).click()
      await page.getByLabel('Words from a title or transcript').fill('weekly')
      await page.getByRole('button', { name: 'Search', exact: true }).click()
      await expect(page.getByRole('link', { name: 'Weekly plan' })).toBeVisible()
      await expectAccessible(page, 'search')
      await page.goto(sessionUrl)
      await page.setViewportSize({ width: 390, height: 844 })
      await expect(page.getByTestId('work-object').first()).toBeVisible()
      await expectAccessible(page, 'session at phone width')
      await screenshot(page, 'session-phone', shots)
      await page.getByLabel('Language').selectOption('zh-Hans')
      await expect(page.getByRole('link', { name: '工作看板' })).toBeVisible()
      await expectAccessible(page, 'session in Chinese')
      await screenshot(page, 'session-zh', shots)

      await anonymousContext.close()
      await reviewerContext.close()
      await ownerContext.close()
    })
  })
}
