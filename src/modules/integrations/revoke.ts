// Seeing and revoking connections. Revoking forgets the stored credential or OAuth tokens (the
// secret columns are cleared, unfinished OAuth states deleted) and keeps the row, marked `revoked`,
// because prepared actions and executions still name it. An action prepared or approved through a
// revoked connection can no longer be approved or executed (`connection_revoked`), and a queued
// execution fails without calling the provider (run.ts checks the status before every attempt).
import type { AppDeps } from '../../platform/deps.ts'
import { notFound } from '../../platform/http/errors.ts'
import { nowIso } from '../../platform/ids.ts'
import { forUpdate } from '../../platform/db/dialect.ts'
import { requireProject, type Caller } from './caller.ts'
import { presentConnection } from './presenter.ts'

/** GET /v1/integrations/connections: the workspace's (or one project's) connections, newest first, no secrets. */
export async function listConnectionViews(deps: AppDeps, caller: Caller, query: { projectId?: string | undefined; includeRevoked?: boolean | undefined }) {
  const workspaceId = caller.membership.workspaceId
  if (query.projectId !== undefined) await requireProject(deps, workspaceId, query.projectId)
  let select = deps.database.db.selectFrom('integration_connections').selectAll().where('workspace_id', '=', workspaceId)
  if (query.projectId !== undefined) select = select.where('project_id', '=', query.projectId)
  if (!query.includeRevoked) select = select.where('status', '!=', 'revoked')
  const rows = await select.orderBy('created_at', 'desc').orderBy('id', 'desc').execute()
  return rows.map(presentConnection)
}

/**
 * DELETE /v1/integrations/connections/{connectionId}: forgets the secrets and marks the connection
 * revoked, in one transaction that locks its row. Revoking again answers the revoked connection.
 */
export async function revokeConnection(deps: AppDeps, caller: Caller, connectionId: string) {
  const workspaceId = caller.membership.workspaceId
  const { db, dialect } = deps.database
  return db.transaction().execute(async (trx) => {
    const row = await forUpdate(dialect, trx.selectFrom('integration_connections').selectAll()
      .where('workspace_id', '=', workspaceId).where('id', '=', connectionId)).executeTakeFirst() ?? notFound('connection', connectionId)
    if (row.status === 'revoked') return presentConnection(row)
    const now = new Date(Math.max(Date.now(), new Date(row.updated_at).getTime() + 1)).toISOString()
    const changes = {
      status: 'revoked' as const, secret_ciphertext: null, secret_nonce: null, secret_key_version: null,
      token_expires_at: null, refresh_locked_until: null, last_error: null, updated_at: now,
    }
    await trx.updateTable('integration_connections').set(changes).where('id', '=', row.id).execute()
    await trx.deleteFrom('integration_oauth_states').where('connection_id', '=', row.id).execute()
    // Approvals not yet spent are voided: the token hash goes, so execute answers connection_revoked.
    await trx.updateTable('external_actions').set({ approval_token_hash: null, approval_expires_at: null, updated_at: nowIso() })
      .where('connection_id', '=', row.id).where('state', 'in', ['prepared', 'approved']).execute()
    return presentConnection({ ...row, ...changes })
  })
}
