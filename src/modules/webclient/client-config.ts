// The client's non-secret settings, written into index.html as JSON (web/src/lib/config.ts reads
// them): the external identity providers the sign-in page offers, and where a sign-in code goes
// when no mail server is configured (so the sign-in page can say where to find it), the tools the
// server has an OAuth app for (the connect form offers OAuth only for them), and whether the
// request carried a session cookie (a signed-out first load then makes no request that must fail).
import type { SignInProvider } from '../../platform/auth/providers.ts'

/** What index.html tells the client (web/src/lib/config.ts reads it). */
export type ClientConfig = {
  authProviders: SignInProvider[]
  mailDelivery: MailDelivery
  /** Integration services with an OAuth app configured on this server (INTEGRATIONS_<SERVICE>_CLIENT_ID); ids only. */
  integrationOAuth: string[]
  /** Whether the request carried a session cookie (valid or not): without one the client knows it is signed out without asking. */
  sessionCookie: boolean
}

/** smtp: mailed; log: no SMTP_URL, printed in the server log (outside production); outbox: no SMTP_URL, kept only in the mail_outbox table. */
export type MailDelivery = 'smtp' | 'log' | 'outbox'

export function mailDelivery(config: { smtpUrl: string | undefined; nodeEnv: string }): MailDelivery {
  if (config.smtpUrl) return 'smtp'
  return config.nodeEnv === 'production' ? 'outbox' : 'log'
}

/** index.html with `<script id="confer-config" type="application/json">` before `</head>`; `<` escaped so no value can close the tag. */
export function withClientConfig(html: string, config: ClientConfig): string {
  const json = JSON.stringify(config).replace(/</g, '\\u003c')
  return html.replace('</head>', `  <script id="confer-config" type="application/json">${json}</script>\n  </head>`)
}
