// Work routes: capture, read, edit, proposals, stage, responsibility, assignment, work sets.
import { createHash } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import fresh from 'fresh'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import type { AppDeps } from '../../platform/deps.ts'
import { createKeyedGroupCommitter } from '../../platform/group-commit.ts'
import { notFound } from '../../platform/http/errors.ts'
import { memberOf } from '../../platform/http/guards.ts'
import { problems } from '../../platform/http/problem.ts'
import { TAGS } from '../../platform/http/tags.ts'
import { decideProposal } from './proposals.ts'
import * as repo from './repo.ts'
import * as schemas from './schemas.ts'
import * as service from './service.ts'

const tags = [TAGS.work]
const WorkObjectRef = Type.Ref('WorkObject')

/** work set details kept serialized per node (most recently built last; the oldest goes first) */
const DETAIL_CACHE_SIZE = 500

/**
 * PostgreSQL: reads of one set that arrive while it is being read wait and share the next read
 * (never one already under way, so each answer is at least as new as its request); a lone read
 * goes at once. SQLite reads in process, cheaper than waiting.
 */
function setReader(deps: AppDeps) {
  const read = (workspaceId: string, workSetId: string) => repo.findWorkSet(deps.database.db, workspaceId, workSetId)
  if (deps.database.dialect !== 'postgres') return read
  const reads = createKeyedGroupCommitter(async (_key, items: { workspaceId: string; workSetId: string }[]) => {
    const set = await read(items[0]!.workspaceId, items[0]!.workSetId)
    return items.map(() => ({ ok: true as const, value: set }))
  })
  return (workspaceId: string, workSetId: string) => reads.submit(`${workspaceId}|${workSetId}`, { workspaceId, workSetId })
}

export function workRoutes(base: FastifyInstance, deps: AppDeps) {
  const app = base.withTypeProvider<TypeBoxTypeProvider>()
  const detailCache = new Map<string, { key: string; body: Buffer; etag: string }>()
  const readSet = setReader(deps)

  app.post('/v1/sessions/:sessionId/workobjects', {
    schema: {
      operationId: 'createWorkObject', tags,
      summary: 'Capture a work object in the session\'s work set (created with its first object). `family` and `semanticType` follow `kind` unless given; `nextStep` triggers nothing external.',
      params: schemas.SessionParams, body: schemas.CreateWorkObjectBody,
      response: { 200: WorkObjectRef, ...problems(400, 401, 403, 404, 429) },
    },
    config: { access: 'edit' },
  }, (request) => service.createWorkObject(deps, memberOf(request), request.params.sessionId, request.body))

  app.get('/v1/workobjects/:workObjectId', {
    schema: {
      operationId: 'getWorkObject', tags, summary: 'One work object (extension).',
      params: schemas.WorkObjectParams, response: { 200: WorkObjectRef, ...problems(401, 403, 404, 429) },
    },
    config: { access: 'view' },
  }, (request) => service.getWorkObject(deps, memberOf(request), request.params.workObjectId))

  app.patch('/v1/workobjects/:workObjectId', {
    schema: {
      operationId: 'editWorkObject', tags,
      summary: 'Edit the content (title, summary): a new revision whose hash is the SHA-256 of the canonical content. An optional `dueDate` and `nextStep` (MeetingWorkNextStep; null clears either) set the due date and next step beside it (no revision when only they change). A stale expectedRevisionHash answers 409 stale_revision with the current revision id and hash.',
      params: schemas.WorkObjectParams, body: schemas.EditWorkObjectBody,
      response: { 200: WorkObjectRef, ...problems(400, 401, 403, 404, 409, 429) },
    },
    config: { access: 'edit' },
  }, (request) => service.editWorkObject(deps, memberOf(request), request.params.workObjectId, request.body))

  app.get('/v1/workobjects/:workObjectId/revisions', {
    schema: {
      operationId: 'listWorkObjectRevisions', tags, summary: 'Every revision of the object, oldest first (AI proposals included, with their proposalState).',
      params: schemas.WorkObjectParams,
      response: { 200: Type.Object({ workObjectId: Type.String(), revisions: Type.Array(Type.Ref('WorkObjectRevision')) }), ...problems(401, 403, 404, 429) },
    },
    config: { access: 'view' },
  }, (request) => service.listRevisions(deps, memberOf(request), request.params.workObjectId))

  app.get('/v1/workobjects/:workObjectId/activity', {
    schema: {
      operationId: 'listWorkObjectActivity', tags, summary: 'The object\'s activity log, oldest first (extension).',
      params: schemas.WorkObjectParams, response: { 200: Type.Array(schemas.ActivityEntry), ...problems(401, 403, 404, 429) },
    },
    config: { access: 'view' },
  }, (request) => service.listActivity(deps, memberOf(request), request.params.workObjectId))

  app.patch('/v1/workobjects/:workObjectId/proposal', {
    schema: {
      operationId: 'decideWorkObjectProposal', tags,
      summary: 'Accept or reject an AI proposal (a proposed object or a proposed revision), guarded by expectedRevisionId = WorkObject.proposal.revisionId.',
      params: schemas.WorkObjectParams, body: schemas.ProposalDecisionBody,
      response: { 200: Type.Object({ workObject: WorkObjectRef, decision: schemas.WorkProposalDecision }), ...problems(400, 401, 403, 404, 409, 429) },
    },
    config: { access: 'edit' },
  }, (request) => decideProposal(deps, memberOf(request), request.params.workObjectId, request.body))

  app.patch('/v1/workobjects/:workObjectId/stage', {
    schema: {
      operationId: 'moveWorkObjectStage', tags,
      summary: 'Move the stage one step forward or any number back; fromStage must be the current stage (409 stage_conflict). Entering accepted needs an approved review of the current revision.',
      params: schemas.WorkObjectParams, body: schemas.StageBody,
      response: { 200: Type.Object({ workObject: WorkObjectRef, transition: schemas.StageTransition }), ...problems(400, 401, 403, 404, 409, 429) },
    },
    config: { access: 'edit' },
  }, (request) => service.moveStage(deps, memberOf(request), request.params.workObjectId, request.body))

  app.patch('/v1/workobjects/:workObjectId/responsibility', {
    schema: {
      operationId: 'changeWorkObjectResponsibility', tags,
      summary: 'Set the responsibility state (the responsible person or a manager), guarded by expectedResponsibilityUpdatedAt; blockedReason is required when blocked and cleared otherwise.',
      params: schemas.WorkObjectParams, body: schemas.ResponsibilityBody,
      response: { 200: WorkObjectRef, ...problems(400, 401, 403, 404, 409, 429) },
    },
    config: { access: 'edit' },
  }, (request) => service.changeResponsibility(deps, memberOf(request), request.params.workObjectId, request.body))

  app.post('/v1/workobjects/:workObjectId/assignment', {
    schema: {
      operationId: 'changeWorkObjectAssignment', tags,
      summary: 'claim (an edit member takes unowned work), assign (the responsible person or a manager, to an edit member) or release.',
      params: schemas.WorkObjectParams, body: schemas.AssignmentBody,
      response: { 200: WorkObjectRef, ...problems(400, 401, 403, 404, 409, 429) },
    },
    config: { access: 'edit' },
  }, (request) => service.changeAssignment(deps, memberOf(request), request.params.workObjectId, request.body))

  app.get('/v1/worksets/:workSetId', {
    schema: {
      operationId: 'getWorkSet', tags,
      summary: 'The work set with its work objects, their revisions and review tasks, its recommended and prepared actions and their executions, and needsRebuild. Rejected proposals are left out. The answer carries a strong ETag: `If-None-Match` with it answers 304 while the set is unchanged.',
      params: schemas.WorkSetParams,
      response: { 200: schemas.WorkSetDetail, 304: Type.Null({ description: 'Unchanged since the ETag given in If-None-Match.' }), ...problems(401, 403, 404, 429) },
    },
    config: { access: 'view' },
  }, async (request, reply) => {
    const caller = memberOf(request)
    const set = await readSet(caller.membership.workspaceId, request.params.workSetId) ?? notFound('work set', request.params.workSetId)
    // Every change to the set or its objects bumps its revision in the same transaction, so the
    // serialized detail of a revision (with the set's own derived fields) can be served again.
    const key = `${set.revision}|${set.session_state}|${set.needs_rebuild}|${set.takeover_state}|${set.updated_at}`
    let detail = detailCache.get(set.id)
    if (detail?.key !== key) {
      // Encoded once per revision: writing a 100 KB string re-encodes it on every answer.
      const body = Buffer.from(reply.serialize(await service.getWorkSetDetail(deps, caller, set.id)) as string)
      detail = { key, body, etag: `"${createHash('sha256').update(body).digest('base64url')}"` }
      if (detailCache.size >= DETAIL_CACHE_SIZE) detailCache.delete(detailCache.keys().next().value!)
      detailCache.set(set.id, detail)
    }
    // Readers revalidate every time (no-cache) and shared caches keep nothing (private).
    reply.header('etag', detail.etag).header('cache-control', 'private, no-cache')
    if (fresh(request.headers, { etag: detail.etag })) return reply.code(304).send(null)
    // Bytes are sent as they are: the schema's serializer already made them.
    return reply.type('application/json; charset=utf-8').send(detail.body as never)
  })

  app.get('/v1/conversations/:conversationId/workset', {
    schema: {
      operationId: 'listConversationWorkSets', tags: [TAGS.sessions],
      summary: 'The conversation\'s work sets, newest first (empty until its first work object).',
      params: schemas.ConversationParams,
      response: { 200: Type.Object({ conversationId: Type.String(), workSets: Type.Array(Type.Ref('WorkSetV2')) }), ...problems(401, 403, 404, 429) },
    },
    config: { access: 'view' },
  }, (request) => service.listConversationWorkSets(deps, memberOf(request), request.params.conversationId))
}
