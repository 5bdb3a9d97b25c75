// What a refused Origin is told: the page was opened at an address that is not this server's
// PUBLIC_URL (an IP address from the start-up log, another port), and how to get on.
import type { Config } from '../../config.ts'

export function untrustedOriginDetail(origin: string | undefined, config: Pick<Config, 'publicUrl'>): string {
  const home = config.publicUrl.origin
  if (!origin || origin === 'null') return `Cross-site requests that change state are refused. Open Confer at ${home}/.`
  return `This page was opened at ${origin}, which is not this server's address ${home} (PUBLIC_URL). ` +
    `Open ${home}/ instead, or add ${origin} to TRUSTED_ORIGINS.`
}
