// Screens that other groups are building (integrations, runner, billing; memory and voice have
// their own routes now): each has
// a navigation entry that stays hidden until its API answers the probe, so a build that has the
// API shows the entry without a client change. The entry leads to the API reference for now.
import { useEffect, useState } from 'react'
import type { MessageKey } from '../lib/i18n.ts'

export type Extension = { id: string; label: string; probe: string; href: string }

export const EXTENSIONS: Extension[] = [
  { id: 'integrations', label: 'Integrations', probe: '/api/v1/agent/external-tools', href: '/docs#/Actions%20and%20integrations' },
  { id: 'billing', label: 'Billing', probe: '/api/v1/billing', href: '/docs#/Billing' },
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
