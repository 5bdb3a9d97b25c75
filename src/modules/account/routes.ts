// Account routes: schema, guard, one service call each.
import type { FastifyInstance, FastifyReply } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { AppDeps } from '../../platform/deps.ts'
import { actorOf } from '../../platform/http/guards.ts'
import { problems } from '../../platform/http/problem.ts'
import { TAGS } from '../../platform/http/tags.ts'
import * as schemas from './schemas.ts'
import { AVATAR_MAX_BYTES, AVATAR_TYPES, bootstrapAccount, currentAccount, replaceAvatar, updateProfile } from './service.ts'

const tags = [TAGS.account]
const JSON_TYPE = 'application/json; charset=utf-8'
const serialized = new WeakMap<object, string>()

/**
 * A cached answer is shared by the requests of its second; so are its bytes: made once by the
 * route's serializer (its response schema), kept as long as the answer is, sent as they are.
 */
function sendSerialized(reply: FastifyReply, answer: object) {
  let json = serialized.get(answer)
  if (json === undefined) serialized.set(answer, json = reply.serialize(answer) as string)
  reply.type(JSON_TYPE).send(json)
}

export function accountRoutes(base: FastifyInstance, deps: AppDeps) {
  const app = base.withTypeProvider<TypeBoxTypeProvider>()

  app.post('/v1/account/bootstrap', {
    schema: {
      operationId: 'bootstrapAccount', tags,
      summary: 'Select, create or join (by pending invitation) the caller\'s workspace. Safe to repeat.',
      body: schemas.BootstrapRequest,
      response: { 200: schemas.BootstrapResponse, ...problems(400, 401, 403, 404, 409, 429) },
    },
    config: { access: 'signedIn' },
    // The body is optional: a bare POST bootstraps with defaults.
    preValidation: async (request) => {
      request.body ??= {}
    },
  }, (request) => bootstrapAccount(deps, actorOf(request), request.body))

  app.get('/v1/account/current', {
    schema: {
      operationId: 'getCurrentAccount', tags,
      summary: 'The signed-in account, its active workspace and membership.',
      response: { 200: schemas.CurrentAccountResponse, ...problems(401, 429) },
    },
    config: { access: 'signedIn' },
  }, (request, reply) => {
    const current = currentAccount(deps, actorOf(request))
    if (current instanceof Promise) return current
    sendSerialized(reply, current)
  })

  app.patch('/v1/account/profile', {
    schema: {
      operationId: 'updateAccountProfile', tags,
      summary: 'Change the display name, locale (BCP 47) or time zone (IANA).',
      body: schemas.ProfilePatch,
      response: { 200: schemas.ProfileResponse, ...problems(400, 401, 429) },
    },
    config: { access: 'signedIn' },
  }, (request) => updateProfile(deps, actorOf(request), request.body))

  app.put('/v1/account/avatar', {
    schema: {
      operationId: 'replaceAccountAvatar', tags,
      summary: `Upload the avatar as the raw request body (${AVATAR_TYPES.join(', ')}, at most 2 MiB); its content decides its type.`,
      body: { content: Object.fromEntries(AVATAR_TYPES.map((type) => [type, { schema: { description: 'The image bytes.' } }])) },
      response: { 200: schemas.AvatarResponse, ...problems(400, 401, 413, 415, 429) },
    },
    bodyLimit: AVATAR_MAX_BYTES,
    config: { access: 'signedIn' },
  }, (request) => replaceAvatar(deps, actorOf(request), request.body))
}
