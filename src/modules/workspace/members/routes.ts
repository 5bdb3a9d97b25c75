// Workspace member routes: the list for everyone, changes and removal for managers.
import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import type { AppDeps } from '../../../platform/deps.ts'
import { memberOf } from '../../../platform/http/guards.ts'
import { problems } from '../../../platform/http/problem.ts'
import { TAGS } from '../../../platform/http/tags.ts'
import * as schemas from '../schemas.ts'
import { listWorkspaceMembers, removeWorkspaceMember, updateWorkspaceMember } from './service.ts'

const tags = [TAGS.workspace]

export function memberRoutes(base: FastifyInstance, deps: AppDeps) {
  const app = base.withTypeProvider<TypeBoxTypeProvider>()

  app.get('/v1/workspace/members', {
    schema: {
      operationId: 'listWorkspaceMembers', tags,
      summary: 'Members of the active workspace and its pending invitations.',
      response: { 200: schemas.MembersResponse, ...problems(401, 403, 429) },
    },
    config: { access: 'view' },
  }, (request) => listWorkspaceMembers(deps, memberOf(request)))

  app.patch('/v1/workspace/members/:accountId', {
    schema: {
      operationId: 'updateWorkspaceMember', tags,
      summary: 'Change a member\'s access role, content permission or job role (managers). Only owners touch owners; the last owner cannot be demoted (409 last_owner).',
      params: schemas.MemberParams,
      body: schemas.UpdateMemberBody,
      response: { 200: Type.Ref('WorkspaceMember'), ...problems(400, 401, 403, 404, 409, 429) },
    },
    config: { access: 'manage' },
  }, (request) => updateWorkspaceMember(deps, memberOf(request), request.params.accountId, request.body))

  app.delete('/v1/workspace/members/:accountId', {
    schema: {
      operationId: 'removeWorkspaceMember', tags,
      summary: 'Remove a member from the workspace and its projects (managers). Only owners remove owners; the last owner cannot be removed (409 last_owner).',
      params: schemas.MemberParams,
      response: { 200: schemas.RemovedMember, ...problems(401, 403, 404, 409, 429) },
    },
    config: { access: 'manage' },
  }, (request) => removeWorkspaceMember(deps, memberOf(request), request.params.accountId))
}
