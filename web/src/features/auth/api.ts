// Account and sign-in calls (better-auth's email code under /api/auth, the account under /v1).
import { api, clearCache, useResource } from '../../lib/api.ts'
import type { BootstrapInput, BootstrapResult, CurrentAccount } from '../../lib/types.ts'

export const CURRENT = '/v1/account/current'
export const useCurrentAccount = () => useResource<CurrentAccount>(CURRENT)
/** Whether the caller may create and change content here; true until the account is known (no flash of a refusal). */
export const useCanEdit = () => {
  const permission = useCurrentAccount().data?.membership?.contentPermission
  return permission === undefined || permission === 'edit'
}

export const sendCode = (email: string) => api.post<{ success: boolean }>('/api/auth/email-otp/send-verification-otp', { email, type: 'sign-in' })
export const verifyCode = (email: string, otp: string) => api.post<{ user: { id: string; email: string } }>('/api/auth/sign-in/email-otp', { email, otp })
export const bootstrap = (input: BootstrapInput) => api.post<BootstrapResult>('/v1/account/bootstrap', input)
export async function signOut() {
  await api.post('/api/auth/sign-out', {})
  clearCache()
}

/** The interface allows 5 codes per mailbox per hour; the page counts what it asked for to show what is left. */
const SEND_LIMIT = 5
export function codesLeft(email: string): number {
  const sent = recentSends(email)
  return Math.max(0, SEND_LIMIT - sent.length)
}
export function noteSend(email: string) {
  localStorage.setItem(`confer.sends.${email}`, JSON.stringify([...recentSends(email), Date.now()]))
}
function recentSends(email: string): number[] {
  try {
    const list = JSON.parse(localStorage.getItem(`confer.sends.${email}`) ?? '[]') as number[]
    return list.filter((at) => at > Date.now() - 3_600_000)
  } catch { return [] }
}

/**
 * Starts sign-in at an external identity provider: better-auth answers the provider's authorize
 * URL and the browser goes there; it comes back to this page (signed in) or to /signin?error=….
 */
export async function signInWith(provider: string) {
  const started = await api.post<{ url?: string }>('/api/auth/sign-in/social', {
    provider, callbackURL: location.href, errorCallbackURL: `${location.origin}/signin`,
  })
  if (started.url) location.assign(started.url)
}
