// The server's non-secret settings for the client, written into index.html as JSON
// (src/modules/webclient/client-config.ts): the external identity providers it is configured with.
export type SignInProvider = { id: string; name: string; type: 'social' | 'oidc' }
export type ClientConfig = { authProviders: SignInProvider[] }

let config: ClientConfig | undefined

export function clientConfig(): ClientConfig {
  if (config) return config
  const parsed = ((): Partial<ClientConfig> => {
    try { return JSON.parse(document.getElementById('confer-config')?.textContent || '{}') as Partial<ClientConfig> } catch { return {} }
  })()
  config = { authProviders: Array.isArray(parsed.authProviders) ? parsed.authProviders : [] }
  return config
}
