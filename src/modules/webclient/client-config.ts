// The client's non-secret settings, written into index.html as JSON (web/src/lib/config.ts reads
// them): the external identity providers the sign-in page offers.
import type { SignInProvider } from '../../platform/auth/providers.ts'

/** What index.html tells the client (web/src/lib/config.ts reads it). */
export type ClientConfig = { authProviders: SignInProvider[] }

/** index.html with `<script id="confer-config" type="application/json">` before `</head>`; `<` escaped so no value can close the tag. */
export function withClientConfig(html: string, config: ClientConfig): string {
  const json = JSON.stringify(config).replace(/</g, '\\u003c')
  return html.replace('</head>', `  <script id="confer-config" type="application/json">${json}</script>\n  </head>`)
}
