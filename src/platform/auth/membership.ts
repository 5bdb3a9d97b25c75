// Membership lookups of the authorization layer. The workspace module owns workspace_members and
// writes it; the platform reads it to authorize (actor.ts resolves the active membership of every
// request, this answers for another account), so modules below workspace (projects) can check
// membership without importing it.
import type { Kysely, Transaction } from 'kysely'
import type { Tables } from '../db/tables.ts'

type Executor = Kysely<Tables> | Transaction<Tables>

/** The account's membership of the workspace (role and content permission), if it is a member. */
export const findWorkspaceMembership = (db: Executor, workspaceId: string, accountId: string) =>
  db.selectFrom('workspace_members').select(['access_role', 'content_permission', 'job_role'])
    .where('workspace_id', '=', workspaceId).where('account_id', '=', accountId).executeTakeFirst()
