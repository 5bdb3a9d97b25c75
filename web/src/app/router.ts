// A small history router: the client routes the paths the server answers with index.html
// (src/modules/webclient CLIENT_ROUTES), and links stay ordinary <a href> elements.
import { useSyncExternalStore, type MouseEvent } from 'react'

const listeners = new Set<() => void>()
const here = () => location.pathname + location.search
/** The address the pages show: where Back returns to when the person chooses to stay. */
let shown = here()
const notify = () => { shown = here(); for (const listener of listeners) listener() }

// A page that would lose something by being left (a meeting still recording) says so first: an
// in-app navigation asks the person (window.confirm); the page itself also guards unloading.
let leaveGuard: (() => string | undefined) | undefined

// Back and Forward have already moved the address when popstate arrives: staying puts it back.
window.addEventListener('popstate', () => {
  const warning = leaveGuard?.()
  if (warning && here() !== shown && !window.confirm(warning)) {
    history.pushState(null, '', shown)
    return
  }
  notify()
})

/** While set, `navigate` asks before leaving when the guard gives a message. Returns the release. */
export function guardLeaving(guard: () => string | undefined): () => void {
  leaveGuard = guard
  return () => { if (leaveGuard === guard) leaveGuard = undefined }
}

export function navigate(path: string, options: { replace?: boolean } = {}) {
  const warning = leaveGuard?.()
  if (warning && !window.confirm(warning)) return
  if (options.replace) history.replaceState(null, '', path)
  else history.pushState(null, '', path)
  window.scrollTo(0, 0)
  notify()
}

export function useLocation(): { path: string; query: URLSearchParams } {
  const href = useSyncExternalStore((listener) => { listeners.add(listener); return () => listeners.delete(listener) }, () => location.pathname + location.search)
  const url = new URL(href, location.origin)
  return { path: url.pathname, query: url.searchParams }
}

/** Follows same-origin links without a reload (modifier clicks open new tabs as usual). */
export function followLink(event: MouseEvent<HTMLAnchorElement>) {
  const anchor = event.currentTarget
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
  if (anchor.target || anchor.origin !== location.origin || anchor.pathname.startsWith('/docs')) return
  event.preventDefault()
  navigate(anchor.pathname + anchor.search)
}

/** Matches `/sessions/:id` style patterns; returns the params or null. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const names: string[] = []
  const regex = new RegExp(`^${pattern.replace(/:(\w+)/g, (_all, name: string) => { names.push(name); return '([^/]+)' })}/?$`)
  const found = regex.exec(path)
  if (!found) return null
  return Object.fromEntries(names.map((name, index) => [name, decodeURIComponent(found[index + 1]!)]))
}
