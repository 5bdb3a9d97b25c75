// Invitation routes: managers invite, resend and revoke; the invitee reads the login intent
// (public) and accepts once signed in.
import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import type { AppDeps } from '../../../platform/deps.ts'
import { actorOf, memberOf } from '../../../platform/http/guards.ts'
import { problems } from '../../../platform/http/problem.ts'
import { TAGS } from '../../../platform/http/tags.ts'
import * as schemas from '../schemas.ts'
import { acceptInvitation, createInvitation, invitationLoginIntent, resendInvitation, revokeInvitation } from './service.ts'

const tags = [TAGS.workspace]

export function invitationRoutes(base: FastifyInstance, deps: AppDeps) {
  const app = base.withTypeProvider<TypeBoxTypeProvider>()

  // Not an Idempotency-Key route: its answer carries the secret link, which must not rest in the
  // database. A repeated invite is refused instead (409 invitation_pending with the invitation's id).
  app.post('/v1/workspace/invitations', {
    schema: {
      operationId: 'createWorkspaceInvitation', tags,
      summary: 'Invite someone by email (managers). accessRole defaults to member, contentPermission to edit. The link is mailed when mail is configured (`delivery: email`), else only returned (`delivery: link`).',
      body: schemas.CreateInvitationBody,
      response: { 200: schemas.InvitationResult, ...problems(400, 401, 402, 403, 404, 409, 429) },
    },
    config: { access: 'manage' },
  }, (request) => createInvitation(deps, memberOf(request), request.body))

  app.post('/v1/workspace/invitations/:invitationId/resend', {
    schema: {
      operationId: 'resendWorkspaceInvitation', tags,
      summary: 'Send a pending or expired invitation again (managers): a new link, valid 7 days; the old link stops working.',
      params: schemas.InvitationParams,
      response: { 200: schemas.InvitationResult, ...problems(401, 403, 404, 409, 429) },
    },
    config: { access: 'manage' },
  }, (request) => resendInvitation(deps, memberOf(request), request.params.invitationId))

  app.delete('/v1/workspace/invitations/:invitationId', {
    schema: {
      operationId: 'revokeWorkspaceInvitation', tags,
      summary: 'Revoke a pending invitation (managers); its link stops working.',
      params: schemas.InvitationParams,
      response: { 200: Type.Ref('WorkspaceInvitation'), ...problems(401, 403, 404, 409, 429) },
    },
    config: { access: 'manage' },
  }, (request) => revokeInvitation(deps, memberOf(request), request.params.invitationId))

  app.post('/v1/invitations/:invitationToken/login-intent', {
    schema: {
      operationId: 'getInvitationLoginIntent', tags,
      summary: 'What the sign-in page shows for an invitation link (public: the token is the permission). 404 invitation_used / invitation_revoked / invitation_expired say why a link no longer works.',
      params: schemas.InvitationTokenParams,
      response: { 200: schemas.LoginIntent, ...problems(400, 404, 429) },
    },
    config: { access: 'public' },
  }, (request) => invitationLoginIntent(deps, request.params.invitationToken))

  app.post('/v1/invitations/:invitationToken/accept', {
    schema: {
      operationId: 'acceptInvitation', tags,
      summary: 'Join the workspace (and project) of an invitation with its access role and permissions; it becomes the active workspace. The signed-in email must be the invited one. Honours Idempotency-Key.',
      headers: Type.Object({ 'idempotency-key': Type.Optional(Type.String({ minLength: 1, maxLength: 255 })) }),
      params: schemas.InvitationTokenParams,
      response: { 200: schemas.AcceptResult, ...problems(400, 401, 403, 404, 409, 422, 429) },
    },
    config: { access: 'signedIn', idempotent: true },
  }, (request) => acceptInvitation(deps, actorOf(request), request.params.invitationToken))
}
