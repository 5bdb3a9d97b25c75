// Screens that other groups are building (integrations, runner, billing; memory and voice have
// their own routes now): each has
// a navigation entry that stays hidden until its API answers the probe, so a build that has the
// API shows the entry without a client change. Entries with a `route` lead to the client's own
// screen (billing, runners, integrations); the others to the API reference for now.
import { useEffect, useState } from 'react'
import type { MessageKey } from '../lib/i18n.ts'

export type Extension = { id: string; label: MessageKey; probe: string; href: string; route?: boolean }

export const EXTENSIONS: Extension[] = [
  { id: 'integrations', label: 'nav.integrations', probe: '/api/v1/agent/external-tools', href: '/integrations', route: true },
  { id: 'runners', label: 'nav.runners', probe: '/api/v1/local-runner/runners', href: '/runners', route: true },
  { id: 'billing', label: 'nav.billing', probe: '/api/v1/billing', href: '/billing', route: true },
]

/** The extensions whose API is there (anything but a 404 route_not_found / 405 answer). */
export function useAvailableExtensions(enabled: boolean): Extension[] {
  const [available, setAvailable] = useState<Extension[]>([])
  useEffect(() => {
    if (!enabled) return
    let cancelled = false
    void Promise.all(EXTENSIONS.map(async (extension) => {
      try {
        const response = await fetch(extension.probe, { credentials: 'same-origin', headers: { accept: 'application/json' } })
        return response.status === 404 || response.status === 405 ? undefined : extension
      } catch { return undefined }
    })).then((found) => { if (!cancelled) setAvailable(found.filter((item): item is Extension => Boolean(item))) })
    return () => { cancelled = true }
  }, [enabled])
  return available
}

export type { MessageKey }
