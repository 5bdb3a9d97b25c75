// Project routes: schema, guard, one service call each.
import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import type { AppDeps } from '../../platform/deps.ts'
import { memberOf } from '../../platform/http/guards.ts'
import { problems } from '../../platform/http/problem.ts'
import { TAGS } from '../../platform/http/tags.ts'
import { leaveProject, listProjectMembers, setProjectMembership } from './membership.ts'
import * as schemas from './schemas.ts'
import { createProject, getProject, listProjects, updateProject } from './service.ts'

const tags = [TAGS.projects]
const ProjectRef = Type.Ref('Project')
const MembershipRef = Type.Ref('ProjectMembership')

export function projectRoutes(base: FastifyInstance, deps: AppDeps) {
  const app = base.withTypeProvider<TypeBoxTypeProvider>()

  app.get('/v1/projects', {
    schema: {
      operationId: 'listProjects', tags,
      summary: 'Projects of the workspace, newest first; active ones unless `status` asks for archived or all. `X-Next-Cursor` carries the cursor of the next page.',
      querystring: schemas.ListProjectsQuery,
      response: {
        200: { ...schemas.ProjectList, headers: { 'x-next-cursor': { type: 'string', description: 'Present when more projects remain.' } } },
        ...problems(400, 401, 403, 429),
      },
    },
    config: { access: 'view' },
  }, async (request, reply) => {
    const page = await listProjects(deps, memberOf(request), request.query)
    if (page.nextCursor) reply.header('x-next-cursor', page.nextCursor)
    return page.projects
  })

  app.post('/v1/projects', {
    schema: {
      operationId: 'createProject', tags,
      summary: 'Create a project; the creator becomes its first member. Honours Idempotency-Key.',
      headers: Type.Object({ 'idempotency-key': Type.Optional(Type.String({ minLength: 1, maxLength: 255 })) }),
      body: schemas.CreateProjectBody,
      response: { 200: ProjectRef, ...problems(400, 401, 403, 409, 422, 429) },
    },
    config: { access: 'edit', idempotent: true },
  }, (request) => createProject(deps, memberOf(request), request.body))

  app.get('/v1/projects/:projectId', {
    schema: {
      operationId: 'getProject', tags,
      summary: 'A project and the capture sessions linked to it.',
      params: schemas.ProjectParams,
      response: { 200: schemas.ProjectDetail, ...problems(401, 403, 404, 429) },
    },
    config: { access: 'view' },
  }, (request) => getProject(deps, memberOf(request), request.params.projectId))

  app.patch('/v1/projects/:projectId', {
    schema: {
      operationId: 'updateProject', tags,
      summary: 'Change a project\'s fields, or archive (`status: archived`) and restore it.',
      params: schemas.ProjectParams,
      body: schemas.UpdateProjectBody,
      response: { 200: ProjectRef, ...problems(400, 401, 403, 404, 409, 429) },
    },
    config: { access: 'edit' },
  }, (request) => updateProject(deps, memberOf(request), request.params.projectId, request.body))

  app.get('/v1/projects/:projectId/members', {
    schema: {
      operationId: 'listProjectMembers', tags,
      summary: 'Who works on the project, with their roles.',
      params: schemas.ProjectParams,
      response: { 200: schemas.MembershipList, ...problems(401, 403, 404, 429) },
    },
    config: { access: 'view' },
  }, (request) => listProjectMembers(deps, memberOf(request), request.params.projectId))

  // The caller's own membership grants nothing and changes no content: view members may join too.
  app.put('/v1/projects/:projectId/membership', {
    schema: {
      operationId: 'setProjectMembership', tags,
      summary: 'Join the project, or change the caller\'s primary and secondary roles in it. Roles grant no permission.',
      params: schemas.ProjectParams,
      body: schemas.MembershipBody,
      response: { 200: MembershipRef, ...problems(400, 401, 403, 404, 429) },
    },
    config: { access: 'view' },
  }, (request) => {
    const caller = memberOf(request)
    return setProjectMembership(deps, caller, request.params.projectId, caller.actor.accountId, request.body)
  })

  app.delete('/v1/projects/:projectId/membership', {
    schema: {
      operationId: 'leaveProject', tags,
      summary: 'Leave the project.',
      params: schemas.ProjectParams,
      response: { 200: schemas.LeftProject, ...problems(401, 403, 404, 429) },
    },
    config: { access: 'view' },
  }, (request) => leaveProject(deps, memberOf(request), request.params.projectId))

  app.put('/v1/projects/:projectId/members/:accountId', {
    schema: {
      operationId: 'setProjectMember', tags,
      summary: 'Add a workspace member to the project (they are notified), or change their roles.',
      params: schemas.ProjectMemberParams,
      body: schemas.MembershipBody,
      response: { 200: MembershipRef, ...problems(400, 401, 403, 404, 429) },
    },
    config: { access: 'edit' },
  }, (request) => setProjectMembership(deps, memberOf(request), request.params.projectId, request.params.accountId, request.body))
}
