// The server's non-secret settings for the client, written into index.html as JSON
// (src/modules/webclient/client-config.ts): the external identity providers it is configured with,
// where sign-in codes go without a mail server, the integration services it has an OAuth app for,
// and whether the page came with a session cookie.
export type SignInProvider = { id: string; name: string; type: 'social' | 'oidc' }
export type MailDelivery = 'smtp' | 'log' | 'outbox'
export type ClientConfig = { authProviders: SignInProvider[]; mailDelivery: MailDelivery; integrationOAuth: string[]; sessionCookie: boolean }

let config: ClientConfig | undefined

export function clientConfig(): ClientConfig {
  if (config) return config
  const parsed = ((): Partial<ClientConfig> => {
    try { return JSON.parse(document.getElementById('confer-config')?.textContent || '{}') as Partial<ClientConfig> } catch { return {} }
  })()
  config = {
    authProviders: Array.isArray(parsed.authProviders) ? parsed.authProviders : [],
    mailDelivery: parsed.mailDelivery === 'log' || parsed.mailDelivery === 'outbox' ? parsed.mailDelivery : 'smtp',
    // Unknown (no config): offer no OAuth; a credential always works.
    integrationOAuth: Array.isArray(parsed.integrationOAuth) ? parsed.integrationOAuth.filter((item) => typeof item === 'string') : [],
    // Unknown (no config): assume a session and ask, as before.
    sessionCookie: parsed.sessionCookie !== false,
  }
  return config
}
