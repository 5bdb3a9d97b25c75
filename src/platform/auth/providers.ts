// The external identity providers this server is configured with (interface §5.4, "the
// authentication provider list"): what a client needs to draw a sign-in button and start it with
// POST /api/auth/sign-in/social {provider: id} — never a client id or secret. Served at
// GET /api/auth/providers (mount.ts) and written into the web client's index.html (webclient).
import type { Config } from '../../config.ts'

export type SignInProvider = { id: string; name: string; type: 'social' | 'oidc' }

export function signInProviders(config: Pick<Config, 'github' | 'google' | 'oidc'>): SignInProvider[] {
  const providers: SignInProvider[] = []
  if (config.github) providers.push({ id: 'github', name: 'GitHub', type: 'social' })
  if (config.google) providers.push({ id: 'google', name: 'Google', type: 'social' })
  if (config.oidc) providers.push({ id: config.oidc.providerId, name: config.oidc.name, type: 'oidc' })
  return providers
}
