// Sign-in through an external identity provider: with an OpenID Connect provider configured (the
// in-process test provider), the sign-in page offers its button, and following it signs the
// person in and lands in the app (a new account: the workspace step). Without providers there is
// no button (large-session.spec.ts, the keyboard sign-in).
import { expect, test } from '@playwright/test'
import type { RunningServer } from '../e2e/server.ts'
import { startOidcTestProvider, type OidcTestProvider } from '../oidc-test-provider.ts'
import { expectAccessible, startWebServer, uniqueEmail } from './helpers.ts'

test.describe('external identity providers', () => {
  let oidc: OidcTestProvider
  let server: RunningServer
  test.beforeAll(async () => {
    oidc = await startOidcTestProvider()
    server = await startWebServer('sqlite', {
      OIDC_PROVIDER_ID: 'test-sso', OIDC_PROVIDER_NAME: 'Test SSO', OIDC_DISCOVERY_URL: oidc.discoveryUrl,
      OIDC_CLIENT_ID: oidc.clientId, OIDC_CLIENT_SECRET: oidc.clientSecret,
    })
  })
  test.afterAll(async () => {
    await server?.stop()
    await oidc?.close()
  })

  test('the configured provider has a button, and signing in through it lands in the app', async ({ page }) => {
    const email = uniqueEmail('sso')
    oidc.nextPerson = { sub: `sub-${email}`, email, name: 'Sam Single-Sign-On' }
    await page.goto(server.baseUrl)
    await expect(page.getByRole('heading', { name: 'Sign in to Confer' })).toBeVisible()
    const button = page.getByRole('button', { name: 'Continue with Test SSO' })
    await expect(button).toBeVisible()
    await expect(page.getByRole('button', { name: /^Continue with/ })).toHaveCount(1)
    await expectAccessible(page, 'sign-in with a provider')
    await button.click()
    // The provider signs Sam in and sends the browser back to the page it started from.
    await expect(page.getByRole('heading', { name: 'Create your workspace' })).toBeVisible()
    expect(new URL(page.url()).origin).toBe(server.baseUrl)
    expect(oidc.tokenRequests.at(-1)).toMatchObject({ clientId: oidc.clientId, hadCodeVerifier: true })
  })

  test('a failed provider sign-in comes back to the sign-in page with a sentence', async ({ page }) => {
    await page.goto(`${server.baseUrl}/signin?error=state_mismatch`)
    await expect(page.getByRole('alert')).toHaveText(/Signing in through the identity provider did not work \(state_mismatch\)/)
    await expect(page.getByRole('button', { name: 'Continue with Test SSO' })).toBeVisible()
  })
})
