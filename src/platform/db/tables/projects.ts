// Row types of the tables owned by the projects module.
// Only that owner queries them; other modules go through its index.ts (docs/ARCHITECTURE.md).

export type ProjectRole = 'product' | 'design' | 'engineering' | 'operations' | 'project-management' | 'other'

export type ProjectTable = {
  id: string
  workspace_id: string
  name: string
  objective: string | null
  description: string | null
  default_language: string | null
  timezone: string | null
  status: 'active' | 'archived'
  created_by: string
  archived_at: string | null
  created_at: string
  updated_at: string
}

export type ProjectMemberTable = {
  project_id: string
  workspace_id: string
  account_id: string
  primary_role: ProjectRole
  /** JSON array of ProjectRole */
  secondary_roles: string
  added_by: string | null
  created_at: string
  updated_at: string
}

export type ProjectsTables = {
  projects: ProjectTable
  project_members: ProjectMemberTable
}
