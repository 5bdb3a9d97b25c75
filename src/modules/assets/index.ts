// Assets: stored files served through signed, expiring links (GET /v1/assets/{assetId}).
// Other modules store and link assets through the functions exported here.
import type { FastifyPluginAsync } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import type { AppDeps } from '../../platform/deps.ts'
import { problems } from '../../platform/http/problem.ts'
import { TAGS } from '../../platform/http/tags.ts'
import { readAssetWithToken } from './service.ts'

export { signedAssetUrl, storeAsset } from './service.ts'

export function assetsModule(deps: AppDeps): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>()
    app.get('/v1/assets/:assetId', {
      schema: {
        operationId: 'getAsset',
        tags: [TAGS.sessions],
        summary: 'Download an asset through its signed, expiring link (public: the token is the permission).',
        params: Type.Object({ assetId: Type.String({ minLength: 1, maxLength: 64 }) }),
        querystring: Type.Object({ token: Type.String({ minLength: 1, maxLength: 256 }) }),
        response: {
          200: { description: 'The asset bytes, with their stored content type.', content: { 'application/octet-stream': { schema: {} } } },
          ...problems(400, 403, 404, 429),
        },
      },
      config: { access: 'public' },
    }, async (request, reply) => {
      const { asset, data, expiresAt } = await readAssetWithToken(deps, request.params.assetId, request.query.token)
      const maxAge = Math.max(0, Math.floor((expiresAt - Date.now()) / 1000))
      return reply
        .type(asset.content_type)
        .header('cache-control', `private, max-age=${maxAge}`)
        .header('x-content-type-options', 'nosniff')
        .header('content-disposition', 'inline')
        .header('etag', `"${asset.sha256}"`)
        .send(Buffer.from(data))
    })
  }
}
