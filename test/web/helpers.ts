// Helpers of the browser tests: accounts, the accessibility scan, screenshots for the README.
import path from 'node:path'
import { AxeBuilder } from '@axe-core/playwright'
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test'
import type { TestDatabaseKind } from '../databases.ts'
import { callJson, signInOverHttp, startMailCatcher, startServer, type MailCatcher, type RunningServer } from '../e2e/server.ts'

export const uniqueEmail = (label: string) => `${label}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}@example.com`

// The README's screenshots are refreshed on demand (UPDATE_SCREENSHOTS=1), so a test run leaves the tree clean.
const SCREENSHOTS = process.env.UPDATE_SCREENSHOTS === '1'
  ? path.resolve(import.meta.dirname, '../../docs/screenshots')
  : path.resolve(import.meta.dirname, '.artifacts/screenshots')

/** Signs `email` in over HTTP and gives the browser context its session cookie. */
export async function signInContext(context: BrowserContext, server: RunningServer, mail: MailCatcher, email: string): Promise<string> {
  const cookie = await signInOverHttp(server, mail, email)
  const [name, ...value] = cookie.split('=')
  await context.addCookies([{ name: name!, value: value.join('='), url: server.baseUrl, httpOnly: true, sameSite: 'Lax' }])
  return cookie
}

/** A new browser context signed in as a fresh account (`label` names its email) with a workspace of its own. */
export async function workspaceContext(browser: Browser, served: Served, label: string): Promise<{ context: BrowserContext; cookie: string }> {
  const context = await browser.newContext()
  const cookie = await signInContext(context, served.server, served.mail, uniqueEmail(label))
  await callJson(served.server, 'POST', '/v1/account/bootstrap', cookie, {})
  return { context, cookie }
}

/** axe-core finds no WCAG 2 A/AA violation on the page as it is now. */
export async function expectAccessible(page: Page, label: string) {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze()
  const found = result.violations.map((violation) => `${violation.id} (${violation.impact}): ${violation.nodes.slice(0, 3).map((node) => node.target.join(' ')).join(' | ')}`)
  expect(found, `axe violations on ${label}`).toEqual([])
}

/** A full-page screenshot (taken once, on the first database). */
export async function screenshot(page: Page, name: string, enabled: boolean) {
  if (!enabled) return
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true })
}

/** The real server process; tried up to three times when it did not become healthy in time (a loaded CI machine). */
export async function startWebServer(kind: TestDatabaseKind, env: Record<string, string>): Promise<RunningServer> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startServer(kind, env)
    } catch (error) {
      if (attempt === 3) throw error
      console.warn(`retrying the server start: ${(error as Error).message.split('\n')[0]}`)
    }
  }
}

/** A mail sink and the real server (its `SMTP_URL` pointed at the sink) for the enclosing describe block: started in its beforeAll, stopped in its afterAll. Read `server` and `mail` inside the tests. */
export type Served = { readonly server: RunningServer; readonly mail: MailCatcher }

export function serveWithMail(kind: TestDatabaseKind, env: Record<string, string> = {}): Served {
  const served = {} as { server: RunningServer; mail: MailCatcher }
  test.beforeAll(async () => {
    served.mail = await startMailCatcher()
    served.server = await startWebServer(kind, { ...env, SMTP_URL: served.mail.url })
  })
  test.afterAll(async () => {
    await served.server?.stop()
    await served.mail?.close()
  })
  return served
}
