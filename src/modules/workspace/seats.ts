// Seats of a workspace, as billing counts them: its members plus its pending invitations (an
// invitation holds a seat until it is accepted, revoked or replaced).
import type { Executor } from './members/repo.ts'

export async function countSeats(executor: Executor, workspaceId: string): Promise<number> {
  const members = await executor.selectFrom('workspace_members').select((eb) => eb.fn.countAll().as('count'))
    .where('workspace_id', '=', workspaceId).executeTakeFirstOrThrow()
  const invitations = await executor.selectFrom('invitations').select((eb) => eb.fn.countAll().as('count'))
    .where('workspace_id', '=', workspaceId).where('status', '=', 'pending').executeTakeFirstOrThrow()
  return Number(members.count) + Number(invitations.count)
}
