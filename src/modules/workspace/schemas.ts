// TypeBox schemas of the workspace module: members and invitations.
import { Type, type Static } from 'typebox'
import { NextCursor, PageQuery } from '../../platform/http/pagination.ts'

const Timestamp = Type.String({ format: 'date-time' })
const Id = Type.String({ minLength: 1, maxLength: 80 })

export const AccessRole = Type.Union([Type.Literal('owner'), Type.Literal('admin'), Type.Literal('member')], {
  description: 'owner and admin are managers: they invite, change and remove members.',
})
export const InvitedAccessRole = Type.Union([Type.Literal('admin'), Type.Literal('member')])
export const ContentPermission = Type.Union([Type.Literal('edit'), Type.Literal('view')], {
  description: 'Independent of the access role. view: read, be present and comment; no creating or changing content.',
})
export const JobRole = Type.Union([Type.Literal('product'), Type.Literal('engineering'), Type.Literal('design'), Type.Literal('other')])

export const WorkspaceMember = Type.Object({
  accountId: Type.String(),
  name: Type.String(),
  email: Type.String(),
  accessRole: AccessRole,
  contentPermission: ContentPermission,
  jobRole: Type.Optional(Type.String()),
  avatarURL: Type.Optional(Type.String({ description: 'Signed link to the avatar, valid for a while.' })),
  joinedAt: Timestamp,
}, { $id: 'WorkspaceMember' })

export const WorkspaceInvitation = Type.Object({
  id: Type.String(),
  workspaceId: Type.String(),
  email: Type.String(),
  accessRole: InvitedAccessRole,
  contentPermission: ContentPermission,
  jobRole: Type.Optional(JobRole),
  projectId: Type.Optional(Type.String()),
  status: Type.Union([Type.Literal('pending'), Type.Literal('accepted'), Type.Literal('revoked'), Type.Literal('expired')]),
  delivery: Type.Optional(Type.Union([Type.Literal('email'), Type.Literal('link')])),
  invitedBy: Type.String({ description: 'Account id of the inviter.' }),
  expiresAt: Timestamp,
  lastSentAt: Type.Optional(Timestamp),
  acceptedAt: Type.Optional(Timestamp),
  acceptedBy: Type.Optional(Type.String()),
  createdAt: Timestamp,
}, { $id: 'WorkspaceInvitation' })

export const MemberParams = Type.Object({ accountId: Id })
export const InvitationParams = Type.Object({ invitationId: Id })
export const InvitationTokenParams = Type.Object({ invitationToken: Type.String({ minLength: 16, maxLength: 256 }) })

export const MembersResponse = Type.Object({
  members: Type.Array(Type.Ref('WorkspaceMember')),
  invitations: Type.Array(Type.Ref('WorkspaceInvitation'), { description: 'Invitations not yet accepted or revoked, newest first (expired ones too, so they can be resent).' }),
})

export const UpdateMemberBody = Type.Object({
  accessRole: Type.Optional(AccessRole),
  contentPermission: Type.Optional(ContentPermission),
  jobRole: Type.Optional(Type.Union([JobRole, Type.Null()], { description: 'null clears it.' })),
}, { additionalProperties: false, minProperties: 1 })

export const RemovedMember = Type.Object({ removed: Type.Literal(true), accountId: Type.String() })

export const CreateInvitationBody = Type.Object({
  email: Type.String({ format: 'email', minLength: 3, maxLength: 254 }),
  accessRole: Type.Optional(InvitedAccessRole),
  contentPermission: Type.Optional(ContentPermission),
  jobRole: Type.Optional(JobRole),
  projectId: Type.Optional(Id),
}, { additionalProperties: false })

export const InvitationResult = Type.Object({
  invitation: Type.Ref('WorkspaceInvitation'),
  inviteURL: Type.String({ description: '`{PUBLIC_URL}/invite/{invitationToken}`: for the inviter to share; shown only here.' }),
  delivery: Type.Union([Type.Literal('email'), Type.Literal('link')], {
    description: 'email: the link was mailed to the invitee; link: mail is not configured (or failed), share inviteURL yourself.',
  }),
})

export const LoginIntent = Type.Object({
  workspaceName: Type.String(),
  invitedEmail: Type.String(),
  accessRole: InvitedAccessRole,
  contentPermission: ContentPermission,
  expiresAt: Timestamp,
  projectId: Type.Optional(Type.String()),
  projectName: Type.Optional(Type.String()),
  inviterName: Type.Optional(Type.String()),
})

export const AcceptResult = Type.Object({
  outcome: Type.Literal('joined'),
  workspace: Type.Object({ id: Type.String(), name: Type.String() }),
  member: Type.Ref('WorkspaceMember'),
  projectId: Type.Optional(Type.String({ description: 'The project the invitation added the account to.' })),
})

export type UpdateMemberInput = Static<typeof UpdateMemberBody>
export type CreateInvitationInput = Static<typeof CreateInvitationBody>
export type JobRoleValue = Static<typeof JobRole>

export const workspaceSchemas = [WorkspaceMember, WorkspaceInvitation]
