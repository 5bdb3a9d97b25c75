// Workspace and projects: projects and their members, notifications, and what invitations need
// beyond the foundation's table (delivery, resend bookkeeping, one pending invitation per email).
import { sql, type Kysely } from 'kysely'

export function workspace() {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.createTable('projects')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('objective', 'text')
        .addColumn('description', 'text')
        .addColumn('default_language', 'text')
        .addColumn('timezone', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('created_by', 'text', (c) => c.notNull())
        .addColumn('archived_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute()
      // The list reads one workspace's projects of one status, newest first.
      await db.schema.createIndex('projects_workspace_status').on('projects').columns(['workspace_id', 'status', 'id']).execute()

      await db.schema.createTable('project_members')
        .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('primary_role', 'text', (c) => c.notNull())
        // JSON array of ProjectRole
        .addColumn('secondary_roles', 'text', (c) => c.notNull())
        .addColumn('added_by', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('project_members_pk', ['project_id', 'account_id'])
        .execute()
      await db.schema.createIndex('project_members_account').on('project_members').columns(['workspace_id', 'account_id']).execute()

      await db.schema.createTable('notifications')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('recipient_account_id', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('actor_account_id', 'text')
        .addColumn('subject_type', 'text')
        .addColumn('subject_id', 'text')
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('read_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema.createIndex('notifications_recipient').on('notifications')
        .columns(['recipient_account_id', 'workspace_id', 'id']).execute()
      await sql`create index notifications_unread on notifications (recipient_account_id, workspace_id) where read_at is null`.execute(db)

      await db.schema.alterTable('invitations').addColumn('delivery', 'text').execute()
      await db.schema.alterTable('invitations').addColumn('last_sent_at', 'text').execute()
      await db.schema.alterTable('invitations').addColumn('send_count', 'integer', (c) => c.notNull().defaultTo(0)).execute()
      await db.schema.createIndex('invitations_workspace').on('invitations').columns(['workspace_id', 'status', 'created_at']).execute()
      // One pending invitation per address and workspace, also under concurrent invites.
      await sql`create unique index invitations_one_pending on invitations (workspace_id, email) where status = 'pending'`.execute(db)
    },
  }
}
