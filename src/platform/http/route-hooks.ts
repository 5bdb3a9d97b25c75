// Adding a hook to one route from an `onRoute` hook: a route decided when it is registered costs the
// others nothing per request, and the hook knows the route's config without `request.routeOptions`
// (a new object per read). Appended after the route's own hooks and those added before it, so the
// order of registration is the order of running. A new array each time: Fastify copies a GET
// route's options for its HEAD route before `onRoute` runs, and the two must not share one.
import type { RouteOptions } from 'fastify'

type HookName = 'onRequest' | 'preHandler' | 'onSend'

export function appendRouteHook<Name extends HookName>(route: RouteOptions, name: Name, hook: NonNullable<RouteOptions[Name]>) {
  const existing = route[name] as unknown
  const hooks = Array.isArray(existing) ? existing : existing ? [existing] : []
  ;(route as Record<HookName, unknown>)[name] = [...hooks, hook]
}
