// Workspace: its members (list, change, remove; the last owner stays) and invitations (invite,
// resend, revoke, the public login intent, accept). The account module joins by invitation through
// `joinByInvitation`; billing counts seats through `countSeats`; the runner reads a runner owner's
// membership through `findMember`. Owns workspaces,
// workspace_members, invitations and account_settings.
import type { FastifyPluginAsync } from 'fastify'
import type { AppDeps } from '../../platform/deps.ts'
import { invitationRoutes } from './invitations/routes.ts'
import { memberRoutes } from './members/routes.ts'
import { workspaceSchemas } from './schemas.ts'

export { findMember, findWorkspace, listMembers } from './members/repo.ts'
export { countSeats } from './seats.ts'
/** an account's settings and memberships, for the account module (bootstrap, profile, avatar) */
export * as accountSettings from './accounts.ts'
export { findUsableInvitation, joinByInvitation, type Joiner } from './invitations/join.ts'
export { findPendingInvitationForEmail, type InvitationRow } from './invitations/repo.ts'
export { pendingInvitationFor } from './invitations/pending.ts'

export function workspaceModule(deps: AppDeps): FastifyPluginAsync {
  return async (app) => {
    for (const schema of workspaceSchemas) app.addSchema(schema)
    memberRoutes(app, deps)
    invitationRoutes(app, deps)
  }
}
