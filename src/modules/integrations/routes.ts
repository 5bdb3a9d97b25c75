// Routes of the integrations module: schema, guard, one service call each.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import type { AppDeps } from '../../platform/deps.ts'
import { memberOf } from '../../platform/http/guards.ts'
import { problems } from '../../platform/http/problem.ts'
import { TAGS } from '../../platform/http/tags.ts'
import { setAccess } from './access.ts'
import { approveAction, executeAction, getExecution, prepareAction } from './actions.ts'
import { completeOAuth, createCredentialConnection, startOAuthConnection } from './connections.ts'
import { listConnectionViews, revokeConnection } from './revoke.ts'
import { draftSetRecommendations, refreshObjectRecommendations } from './recommendations.ts'
import * as schemas from './schemas.ts'
import { callExternalTool, fieldOptions, listExternalTools, prepareRecommendation } from './tools.ts'

const tags = [TAGS.actions]
const IdempotencyHeader = Type.Object({ 'idempotency-key': Type.Optional(Type.String({ minLength: 1, maxLength: 255 })) })
const Prepared = Type.Ref('PreparedExternalAction')
/** Routes whose body is all optional accept no body at all, as `{}`. */
const bodyMayBeAbsent = async (request: FastifyRequest) => {
  if (request.body === undefined || request.body === null) request.body = {}
}

export function integrationRoutes(base: FastifyInstance, deps: AppDeps) {
  const app = base.withTypeProvider<TypeBoxTypeProvider>()

  app.post('/v1/work-objects/:workObjectId/action-recommendations/refresh', {
    schema: {
      operationId: 'refreshWorkObjectActionRecommendations', tags: [TAGS.work],
      summary: 'Draft again the recommended external actions of one work object (an action item → an issue, a decision → a channel message, a dated follow-up → a calendar event), each citing the object and its source segments. Nothing leaves Confer.',
      params: schemas.WorkObjectParams, body: schemas.RefreshBody,
      response: { 200: schemas.RecommendationList, ...problems(400, 401, 403, 404, 409, 429) },
    },
    preValidation: bodyMayBeAbsent,
    config: { access: 'edit' },
  }, (request) => refreshObjectRecommendations(deps, memberOf(request), request.params.workObjectId, request.body.expectedRevisionHash))

  app.post('/v1/work-sets/:workSetId/action-recommendations/draft', {
    schema: {
      operationId: 'draftWorkSetActionRecommendations', tags: [TAGS.work],
      summary: 'Draft recommended external actions for the work set\'s objects that have none yet. Nothing leaves Confer.',
      params: schemas.WorkSetParams, body: Type.Object({}),
      response: { 200: schemas.RecommendationList, ...problems(400, 401, 403, 404, 429) },
    },
    preValidation: bodyMayBeAbsent,
    config: { access: 'edit' },
  }, (request) => draftSetRecommendations(deps, memberOf(request), request.params.workSetId, false))

  app.post('/v1/work-sets/:workSetId/action-recommendations/refresh', {
    schema: {
      operationId: 'refreshWorkSetActionRecommendations', tags: [TAGS.work],
      summary: 'Draft again every recommendation of the work set from its objects as they are now; open ones that no longer fit become stale.',
      params: schemas.WorkSetParams, body: Type.Object({}),
      response: { 200: schemas.RecommendationList, ...problems(400, 401, 403, 404, 429) },
    },
    preValidation: bodyMayBeAbsent,
    config: { access: 'edit' },
  }, (request) => draftSetRecommendations(deps, memberOf(request), request.params.workSetId, true))

  app.post('/v1/action-recommendations/:recommendationId/prepare', {
    schema: {
      operationId: 'prepareActionRecommendation', tags,
      summary: 'Freeze a recommendation into a prepared action: the exact payload and its hash. Nothing is sent until it is approved and executed. An open recommendation, or a prepared one whose every action failed when sent (409 `action_state_conflict` otherwise). Honours Idempotency-Key.',
      headers: IdempotencyHeader, params: schemas.RecommendationParams, body: schemas.PrepareRecommendationBody,
      response: { 200: Prepared, ...problems(400, 401, 403, 404, 409, 422, 429) },
    },
    preValidation: bodyMayBeAbsent,
    config: { access: 'edit', idempotent: true },
  }, (request) => prepareRecommendation(deps, memberOf(request), request.params.recommendationId, request.body))

  app.post('/v1/actions/:actionId/approve', {
    schema: {
      operationId: 'approveExternalAction', tags,
      summary: 'Approve a prepared action as it is (`expectedPayloadHash`): answers a single-use, short-lived approvalToken bound to the payload hash, the connection and the action version. Approving again issues a new token and voids the previous one.',
      params: schemas.ActionParams, body: schemas.ApproveBody,
      response: { 200: schemas.ApprovalResult, ...problems(400, 401, 403, 404, 409, 429) },
    },
    config: { access: 'edit' },
  }, (request) => approveAction(deps, memberOf(request), request.params.actionId, request.body.expectedPayloadHash))

  app.post('/v1/actions/:actionId/execute', {
    schema: {
      operationId: 'executeExternalAction', tags,
      summary: 'Spend the approval token: the action runs once, as a durable job; the receipt starts `queued` and its state arrives on the realtime channel (`execution.updated`) and at GET /v1/executions/{executionId}. Honours Idempotency-Key.',
      headers: IdempotencyHeader, params: schemas.ActionParams, body: schemas.ExecuteBody,
      response: { 200: schemas.ExecuteResult, ...problems(400, 401, 403, 404, 409, 422, 429) },
    },
    config: { access: 'edit', idempotent: true },
  }, (request) => executeAction(deps, memberOf(request), request.params.actionId, request.body))

  app.get('/v1/executions/:executionId', {
    schema: {
      operationId: 'getExecution', tags,
      summary: 'An execution, its receipt and its append-only history.',
      params: schemas.ExecutionParams,
      response: { 200: Type.Ref('ExecutionV2'), ...problems(401, 403, 404, 429) },
    },
    config: { access: 'view' },
  }, (request) => getExecution(deps, memberOf(request), request.params.executionId))

  app.get('/v1/agent/external-tools', {
    schema: {
      operationId: 'listExternalTools', tags,
      summary: 'The actions the workspace\'s projects may use, as tools with JSON Schema inputs (one per action and connection). A local runner may call it with `Authorization: Bearer <runnerToken>` on its owner\'s behalf.',
      response: { 200: schemas.ExternalToolList, ...problems(401, 403, 429) },
    },
    config: { access: 'view', runnerAccess: true },
  }, (request) => listExternalTools(deps, memberOf(request)))

  app.post('/v1/agent/external-tools/:toolName', {
    schema: {
      operationId: 'callExternalTool', tags,
      summary: 'Prepare the tool\'s action with this input. It still waits for a person\'s approval. Honours Idempotency-Key. A local runner may call it with `Authorization: Bearer <runnerToken>` on its owner\'s behalf.',
      headers: IdempotencyHeader, params: schemas.ToolParams, body: schemas.ToolCallBody,
      response: { 200: Prepared, ...problems(400, 401, 403, 404, 409, 422, 429) },
    },
    config: { access: 'edit', idempotent: true, runnerAccess: true },
  }, (request) => callExternalTool(deps, memberOf(request), request.params.toolName, request.body))

  app.put('/v1/integrations/access', {
    schema: {
      operationId: 'setIntegrationAccess', tags,
      summary: 'Which connections and actions a project may use; everything else is refused. Replaces the project\'s access. Managers only.',
      body: schemas.AccessBody,
      response: { 200: Type.Ref('IntegrationAccess'), ...problems(400, 401, 403, 404, 409, 429) },
    },
    config: { access: 'manage' },
  }, (request) => setAccess(deps, memberOf(request), request.body))

  app.post('/v1/integrations/actions/field-options', {
    schema: {
      operationId: 'listIntegrationFieldOptions', tags,
      summary: 'The choices for a field (repositories, labels, assignees…) from the live connection, filtered by `query`, a page at a time (`cursor`).',
      body: schemas.FieldOptionsBody,
      response: { 200: schemas.FieldOptionsResult, ...problems(400, 401, 403, 404, 409, 422, 429, 502) },
    },
    config: { access: 'edit' },
  }, (request) => fieldOptions(deps, memberOf(request), request.body))

  app.post('/v1/integrations/actions/prepare', {
    schema: {
      operationId: 'prepareExternalAction', tags,
      summary: 'Validate an action\'s input and freeze the exact payload and its hash. Nothing is sent. Honours Idempotency-Key.',
      headers: IdempotencyHeader, body: schemas.PrepareBody,
      response: { 200: Prepared, ...problems(400, 401, 403, 404, 409, 422, 429) },
    },
    config: { access: 'edit', idempotent: true },
  }, (request) => prepareAction(deps, memberOf(request), request.body))

  app.post('/v1/integrations/connections/credential', {
    schema: {
      operationId: 'createCredentialConnection', tags,
      summary: 'Connect a tool to a project with a credential (api_key, custom_credential) or none (no_auth). The credential is stored encrypted and never returned. The project may then use the connection\'s actions. GitHub, Linear and Slack credentials are first checked with the provider (GET /user, a viewer query, auth.test): one it refuses is a 422 `credential_refused` and nothing is stored; a provider that does not answer in time leaves the connection active with `lastError` saying it was not checked. Honours Idempotency-Key.',
      headers: IdempotencyHeader, body: schemas.CredentialConnectionBody,
      response: { 200: Type.Ref('IntegrationConnection'), ...problems(400, 401, 403, 404, 409, 422, 429) },
    },
    config: { access: 'edit', idempotent: true },
  }, (request) => createCredentialConnection(deps, memberOf(request), request.body))

  app.post('/v1/integrations/connections/oauth', {
    schema: {
      operationId: 'createOAuthConnection', tags,
      summary: 'Start connecting a tool through OAuth (authorization code with PKCE): send the person to authorizationURL before expiresAt; the provider returns to /v1/integrations/oauth/callback, which stores the tokens. Honours Idempotency-Key.',
      headers: IdempotencyHeader, body: schemas.OAuthConnectionBody,
      response: { 200: schemas.OAuthConnectionResult, ...problems(400, 401, 403, 404, 409, 422, 429) },
    },
    config: { access: 'edit', idempotent: true },
  }, (request) => startOAuthConnection(deps, memberOf(request), request.body))

  app.get('/v1/integrations/connections', {
    schema: {
      operationId: 'listIntegrationConnections', tags,
      summary: 'The workspace\'s connections (or one project\'s, `projectId`), newest first, revoked ones only with `includeRevoked=true`. Credentials and tokens are never returned: `hasCredential` says whether one is stored.',
      querystring: schemas.ConnectionListQuery,
      response: { 200: Type.Array(Type.Ref('IntegrationConnection')), ...problems(400, 401, 403, 404, 429) },
    },
    config: { access: 'view' },
  }, (request) => listConnectionViews(deps, memberOf(request), request.query))

  app.delete('/v1/integrations/connections/:connectionId', {
    schema: {
      operationId: 'revokeIntegrationConnection', tags,
      summary: 'Revoke a connection (edit members, like connecting one): its stored credential or tokens are deleted, it can no longer be used, and actions prepared or approved through it can no longer be approved or executed (`connection_revoked`); nothing more is sent through it. The connection stays listed as `revoked` for the record. Revoking again answers the revoked connection.',
      params: schemas.ConnectionParams,
      response: { 200: Type.Ref('IntegrationConnection'), ...problems(400, 401, 403, 404, 429) },
    },
    config: { access: 'edit' },
  }, (request) => revokeConnection(deps, memberOf(request), request.params.connectionId))

  app.get('/v1/integrations/oauth/callback', {
    schema: {
      operationId: 'completeOAuthConnection', tags,
      summary: 'Where the provider returns after authorization: exchanges the code (with the PKCE verifier) for tokens and stores them encrypted. The single-use `state` is the permission.',
      querystring: schemas.OAuthCallbackQuery,
      response: {
        200: Type.Object({ connectionId: Type.String(), connectionAlias: Type.String(), status: Type.Literal('active'), tokenExpiresAt: Type.Optional(Type.String({ format: 'date-time' })) }),
        ...problems(400, 409, 422, 429, 502),
      },
      security: [],
    },
    config: { access: 'public' },
  }, (request) => completeOAuth(deps, request.query))
}
