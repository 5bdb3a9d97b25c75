// Rows → API shapes of the projects module.
import type { ProjectRoleValue } from './schemas.ts'
import type { ProjectMemberRow, ProjectRow } from './repo.ts'

export function presentProject(row: ProjectRow) {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    name: row.name,
    ...(row.objective !== null ? { objective: row.objective } : {}),
    ...(row.description !== null ? { description: row.description } : {}),
    ...(row.default_language !== null ? { defaultLanguage: row.default_language } : {}),
    ...(row.timezone !== null ? { timezone: row.timezone } : {}),
    status: row.status,
    createdBy: row.created_by,
    ...(row.archived_at !== null ? { archivedAt: row.archived_at } : {}),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}

export function presentProjectMember(row: ProjectMemberRow) {
  return {
    projectId: row.project_id,
    accountId: row.account_id,
    name: row.name,
    email: row.email,
    primaryRole: row.primary_role,
    secondaryRoles: JSON.parse(row.secondary_roles) as ProjectRoleValue[],
    joinedAt: row.created_at,
    updatedAt: row.updated_at,
  }
}
