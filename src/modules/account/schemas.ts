import { Type, type Static } from 'typebox'

const Timestamp = Type.String({ format: 'date-time' })

export const AccessRole = Type.Union([Type.Literal('owner'), Type.Literal('admin'), Type.Literal('member')])
export const ContentPermission = Type.Union([Type.Literal('edit'), Type.Literal('view')])

export const AccountRecord = Type.Object({
  id: Type.String(),
  email: Type.String(),
  name: Type.String(),
  emailVerified: Type.Boolean(),
  locale: Type.Optional(Type.String()),
  timezone: Type.Optional(Type.String()),
  avatarURL: Type.Optional(Type.String({ description: 'Signed link, valid until avatarURLExpiresAt.' })),
  avatarURLExpiresAt: Type.Optional(Timestamp),
  activeWorkspaceId: Type.Optional(Type.String()),
  createdAt: Timestamp,
}, { $id: 'Account' })

export const WorkspaceRecord = Type.Object({
  id: Type.String(),
  name: Type.String(),
  createdAt: Timestamp,
}, { $id: 'Workspace' })

export const MembershipRecord = Type.Object({
  workspaceId: Type.String(),
  accountId: Type.String(),
  accessRole: AccessRole,
  contentPermission: ContentPermission,
  jobRole: Type.Optional(Type.String()),
  joinedAt: Timestamp,
}, { $id: 'WorkspaceMembership' })

export const BootstrapRequest = Type.Object({
  workspaceId: Type.Optional(Type.String({ minLength: 1, description: 'Select this workspace (the caller must be a member).' })),
  invitationToken: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: 'Join through this pending invitation.' })),
  workspaceName: Type.Optional(Type.String({ minLength: 1, maxLength: 120, description: 'Name of the workspace created when the caller has none.' })),
}, { additionalProperties: false })

export const BootstrapResponse = Type.Object({
  outcome: Type.Union([Type.Literal('selected'), Type.Literal('created'), Type.Literal('joined')]),
  account: Type.Ref('Account'),
  workspace: Type.Ref('Workspace'),
  membership: Type.Ref('WorkspaceMembership'),
})

export const CurrentAccountResponse = Type.Object({
  account: Type.Ref('Account'),
  workspace: Type.Optional(Type.Ref('Workspace')),
  membership: Type.Optional(Type.Ref('WorkspaceMembership')),
  workspaces: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), accessRole: AccessRole })),
  pendingInvitation: Type.Optional(Type.Object({
    workspaceName: Type.String(),
    inviterName: Type.Optional(Type.String()),
    expiresAt: Timestamp,
  }, { description: 'Only for an account in no workspace: the invitation to its email that bootstrap joins (instead of creating a workspace).' })),
})

export const ProfilePatch = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 120 })),
  locale: Type.Optional(Type.String({ minLength: 1, maxLength: 35, description: 'BCP 47 language tag' })),
  timezone: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone' })),
}, { additionalProperties: false, minProperties: 1 })

export const ProfileResponse = Type.Object({ account: Type.Ref('Account') })

export const AvatarResponse = Type.Object({
  account: Type.Ref('Account'),
  assetId: Type.String(),
  avatarURL: Type.String(),
  expiresAt: Timestamp,
})

export type BootstrapInput = Static<typeof BootstrapRequest>
export type ProfileInput = Static<typeof ProfilePatch>
export const accountSchemas = [AccountRecord, WorkspaceRecord, MembershipRecord]
