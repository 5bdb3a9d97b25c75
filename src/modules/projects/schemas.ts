// TypeBox schemas of the projects module.
import { Type, type Static } from 'typebox'
import { PageQuery } from '../../platform/http/pagination.ts'

const Timestamp = Type.String({ format: 'date-time' })
const Id = Type.String({ minLength: 1, maxLength: 80 })

export const ProjectStatus = Type.Union([Type.Literal('active'), Type.Literal('archived')])
export const ProjectRole = Type.Union([
  Type.Literal('product'), Type.Literal('design'), Type.Literal('engineering'),
  Type.Literal('operations'), Type.Literal('project-management'), Type.Literal('other'),
], { description: 'Selects default tools and suggestions; grants no permission.' })

const Name = Type.String({ minLength: 1, maxLength: 200, description: 'At least one character after trimming.' })
const Objective = Type.String({ maxLength: 2000 })
const Description = Type.String({ maxLength: 20_000 })
const Language = Type.String({ minLength: 1, maxLength: 35, description: 'BCP 47 language tag, e.g. en or zh-Hans; stored canonical.' })
const TimeZone = Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone, e.g. Europe/Berlin.' })

export const Project = Type.Object({
  id: Type.String(),
  workspaceId: Type.String(),
  name: Type.String(),
  objective: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
  defaultLanguage: Type.Optional(Type.String()),
  timezone: Type.Optional(Type.String()),
  status: ProjectStatus,
  createdBy: Type.String({ description: 'Account id of the creator.' }),
  archivedAt: Type.Optional(Timestamp),
  createdAt: Timestamp,
  updatedAt: Timestamp,
}, { $id: 'Project' })

export const ProjectMembership = Type.Object({
  projectId: Type.String(),
  accountId: Type.String(),
  name: Type.String(),
  email: Type.String(),
  primaryRole: ProjectRole,
  secondaryRoles: Type.Array(ProjectRole),
  joinedAt: Timestamp,
  updatedAt: Timestamp,
}, { $id: 'ProjectMembership' })

export const ProjectParams = Type.Object({ projectId: Id })
export const ProjectMemberParams = Type.Object({ projectId: Id, accountId: Id })

export const ListProjectsQuery = Type.Object({
  status: Type.Optional(Type.Union([ProjectStatus, Type.Literal('all')], {
    description: 'active (default), archived, or all. Archived projects are listed only when asked for.',
  })),
  ...PageQuery,
})

export const ProjectList = Type.Array(Type.Ref('Project'), {
  description: 'Newest first. When more remain, the `X-Next-Cursor` response header holds the `cursor` of the next page.',
})

export const CreateProjectBody = Type.Object({
  name: Name,
  objective: Type.Optional(Objective),
  description: Type.Optional(Description),
  defaultLanguage: Type.Optional(Language),
  timezone: Type.Optional(TimeZone),
}, { additionalProperties: false })

export const UpdateProjectBody = Type.Object({
  name: Type.Optional(Name),
  status: Type.Optional(ProjectStatus),
  objective: Type.Optional(Type.Union([Objective, Type.Null()])),
  description: Type.Optional(Type.Union([Description, Type.Null()])),
  defaultLanguage: Type.Optional(Type.Union([Language, Type.Null()])),
  timezone: Type.Optional(Type.Union([TimeZone, Type.Null()])),
  expectedUpdatedAt: Type.Optional(Type.String({
    format: 'date-time', description: 'Refuse with 409 (carrying the current `updatedAt`) when the project changed since.',
  })),
}, { additionalProperties: false, minProperties: 1, description: 'null clears an optional field.' })

export const ProjectDetail = Type.Object({
  project: Type.Ref('Project'),
  sessions: Type.Array(Type.Object({}, { additionalProperties: true }), {
    description: 'SessionSnapshot[]: the capture sessions linked to the project, newest first.',
  }),
})

export const MembershipBody = Type.Object({
  primaryRole: ProjectRole,
  secondaryRoles: Type.Optional(Type.Array(ProjectRole, { maxItems: 6, uniqueItems: true, default: [] })),
}, { additionalProperties: false })

export const MembershipList = Type.Array(Type.Ref('ProjectMembership'), { description: 'In the order they joined.' })

export const LeftProject = Type.Object({ left: Type.Boolean({ description: 'false when the caller was not a member.' }), projectId: Type.String() })

export type CreateProjectInput = Static<typeof CreateProjectBody>
export type UpdateProjectInput = Static<typeof UpdateProjectBody>
export type ListProjectsInput = Static<typeof ListProjectsQuery>
export type MembershipInput = Static<typeof MembershipBody>
export type ProjectRoleValue = Static<typeof ProjectRole>

export const projectSchemas = [Project, ProjectMembership]
