// Workspace: its members (list, change, remove; the last owner stays), invitations (invite,
// resend, revoke, the public login intent, accept) and each member's notifications. Other modules
// notify people through `notify`, and the account module joins by invitation through `joinByInvitation`;
// billing counts seats through `countSeats` and checks a workspace exists through `findWorkspace`.
import type { FastifyPluginAsync } from 'fastify'
import type { AppDeps } from '../../platform/deps.ts'
import { invitationRoutes } from './invitations/routes.ts'
import { memberRoutes } from './members/routes.ts'
import { notificationRoutes } from './notifications/routes.ts'
import { workspaceSchemas } from './schemas.ts'

export { notify, type NewNotification, type NotificationKind } from './notifications/service.ts'
export { findWorkspace, listMembers } from './members/repo.ts'
export { countSeats } from './seats.ts'
export { findUsableInvitation, joinByInvitation, type Joiner } from './invitations/join.ts'
export { findPendingInvitationForEmail, type InvitationRow } from './invitations/repo.ts'

export function workspaceModule(deps: AppDeps): FastifyPluginAsync {
  return async (app) => {
    for (const schema of workspaceSchemas) app.addSchema(schema)
    memberRoutes(app, deps)
    invitationRoutes(app, deps)
    notificationRoutes(app, deps)
  }
}
