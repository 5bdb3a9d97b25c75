// Memory routes (Projects and memory): schema, guard, one service call each.
import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import type { AppDeps } from '../../platform/deps.ts'
import { memberOf } from '../../platform/http/guards.ts'
import { problems } from '../../platform/http/problem.ts'
import { TAGS } from '../../platform/http/tags.ts'
import { registerCodebase } from './codebase.ts'
import * as schemas from './schemas.ts'
import { bindExternalSources, getProjectMemory, queryExternalContext, resolveConflict } from './service.ts'

const tags = [TAGS.projects]

export function memoryRoutes(base: FastifyInstance, deps: AppDeps) {
  const app = base.withTypeProvider<TypeBoxTypeProvider>()

  app.get('/v1/projects/:projectId/memory', {
    schema: {
      operationId: 'getProjectMemory', tags,
      summary: 'What the project knows: entries derived from accepted work (decisions, rules, outcomes and metrics, references), bound external items and indexed codebases, each with validity, status and sources; the conflicts a person settles. Refreshed first when what it derives from changed.',
      params: schemas.ProjectParams,
      response: { 200: Type.Ref('ProjectMemory'), ...problems(401, 403, 404, 429) },
    },
    config: { access: 'view' },
  }, (request) => getProjectMemory(deps, memberOf(request), request.params.projectId))

  app.post('/v1/projects/:projectId/memory/conflicts/:conflictId/resolve', {
    schema: {
      operationId: 'resolveProjectMemoryConflict', tags,
      summary: 'Settle a conflict: `keep-one` (keepEntryId stays current, the other is superseded), `keep-both` (with a note), or `dismiss` (not a contradiction). A conflict is settled once: again, or at the same time, answers 409 memory_conflict_settled with the conflict as it is.',
      params: schemas.ConflictParams,
      body: schemas.ResolveConflictBody,
      response: { 200: Type.Object({ conflict: Type.Ref('MemoryConflict'), memory: Type.Ref('ProjectMemory') }), ...problems(400, 401, 403, 404, 409, 429) },
    },
    config: { access: 'edit' },
  }, (request) => resolveConflict(deps, memberOf(request), request.params.projectId, request.params.conflictId, request.body))

  app.post('/v1/projects/:projectId/external-context/query', {
    schema: {
      operationId: 'queryProjectExternalContext', tags,
      summary: 'Ask the connected tools the project may use for items related to a query or a work object; what came back is recorded as an observation whose items can be bound into memory. No items (and a `reason`) when no connector is installed or the project may use no connection.',
      params: schemas.ProjectParams,
      body: schemas.ExternalContextQueryBody,
      response: { 200: schemas.ExternalContextResult, ...problems(400, 401, 403, 404, 429, 503) },
    },
    config: { access: 'edit' },
  }, (request) => queryExternalContext(deps, memberOf(request), request.params.projectId, request.body))

  app.post('/v1/projects/:projectId/memory/external-sources', {
    schema: {
      operationId: 'bindProjectMemoryExternalSources', tags,
      summary: 'Bind items of an observation into the project\'s memory as sources (`confirmSourceBound: true` confirms a person chose them). Binding an item again changes nothing.',
      params: schemas.ProjectParams,
      body: schemas.ExternalSourcesBody,
      response: { 200: Type.Array(Type.Ref('ExternalMemorySource')), ...problems(400, 401, 403, 404, 429) },
    },
    config: { access: 'edit' },
  }, (request) => bindExternalSources(deps, memberOf(request), request.params.projectId, request.body))

  app.post('/v1/projects/:projectId/memory/codebase', {
    schema: {
      operationId: 'registerProjectCodebase', tags,
      summary: 'Register a git repository (an absolute path or file:// URL under the server\'s CODEBASE_ROOTS) and index its documents and code symbols so answers cite file and line; `reindex: true` indexes it again. 403 codebase_not_allowed outside the roots, 413 codebase_too_large, 422 codebase_unavailable (clone failed or too slow), 409 codebase_indexing while another request indexes it.',
      params: schemas.ProjectParams,
      body: schemas.CodebaseBody,
      response: { 200: Type.Ref('MemoryCodebase'), ...problems(400, 401, 403, 404, 409, 413, 422, 429) },
    },
    config: { access: 'edit' },
  }, (request) => registerCodebase(deps, memberOf(request), request.params.projectId, request.body))
}
