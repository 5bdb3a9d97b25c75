// Audio routes: chunk upload (raw body), the list of stored chunks, one chunk's bytes.
import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import type { AppDeps } from '../../platform/deps.ts'
import { actorOf } from '../../platform/http/guards.ts'
import { problems } from '../../platform/http/problem.ts'
import { TAGS } from '../../platform/http/tags.ts'
import { ingestChunk, listChunks, readChunk } from './audio.ts'
import { AUDIO_CHUNK_MAX_BYTES, AUDIO_MEDIA_TYPES, PARSED_MEDIA_TYPES } from './content-type.ts'
import * as schemas from './schemas.ts'

const tags = [TAGS.sessions]

/** Audio bodies are taken as raw bytes, up to the chunk limit, by this module's routes only. */
export function registerAudioParsers(app: FastifyInstance) {
  for (const type of PARSED_MEDIA_TYPES) {
    app.addContentTypeParser(type, { parseAs: 'buffer', bodyLimit: AUDIO_CHUNK_MAX_BYTES }, (_request, body, done) => done(null, body))
  }
}

export function audioRoutes(base: FastifyInstance, deps: AppDeps) {
  const app = base.withTypeProvider<TypeBoxTypeProvider>()
  const audioTypes = AUDIO_MEDIA_TYPES.map((type) => (type === 'audio/pcm' ? 'audio/pcm;rate=16000' : type))

  app.post('/v1/sessions/:sessionId/audio', {
    schema: {
      operationId: 'uploadSessionAudio', tags,
      summary: 'Store one audio chunk (raw body, at most 5 MiB). Durable before the 200; a repeated X-Service-Chunk-ID answers `duplicate: true` and stores nothing.',
      description: 'Content types: audio/wav, audio/pcm;rate=<Hz>[;channels=2] (16-bit little-endian), audio/webm, audio/ogg. ' +
        'Chunks keep the order of `X-Service-Chunk-Sequence` when the client sends it, else their arrival order. 409 when the session is not recording.',
      params: schemas.SessionParams,
      headers: Type.Object({
        'x-service-chunk-id': Type.Optional(Type.String({ description: 'Required. The client\'s id of this chunk (1–128 visible ASCII characters).' })),
        'x-service-chunk-sequence': Type.Optional(Type.String({ description: 'Optional. The chunk\'s position, a whole number; unique in the session.' })),
      }),
      body: { content: Object.fromEntries(audioTypes.map((type) => [type, { schema: { description: 'The audio bytes.' } }])) },
      response: { 200: schemas.AudioChunkResult, ...problems(400, 401, 403, 404, 409, 413, 415, 429) },
    },
    bodyLimit: AUDIO_CHUNK_MAX_BYTES,
    config: { access: 'edit' },
  }, (request) => ingestChunk(deps, actorOf(request), request.params.sessionId, {
    chunkId: request.headers['x-service-chunk-id'],
    sequence: request.headers['x-service-chunk-sequence'],
    contentType: request.headers['content-type'],
    body: request.body,
  }))

  app.get('/v1/sessions/:sessionId/chunks', {
    schema: {
      operationId: 'listSessionAudioChunks', tags,
      summary: 'The audio chunks stored for a session, in order: after a reconnect, send only the ones missing here.',
      params: schemas.SessionParams,
      querystring: schemas.ListChunksQuery,
      response: { 200: schemas.ChunkList, ...problems(400, 401, 403, 404, 429) },
    },
    config: { access: 'view' },
  }, (request) => listChunks(deps, actorOf(request), request.params.sessionId, request.query))

  app.get('/v1/sessions/:sessionId/chunks/:chunkId', {
    schema: {
      operationId: 'getSessionAudioChunk', tags,
      summary: 'One audio chunk\'s bytes, exactly as uploaded, with their content type and an ETag of their SHA-256.',
      params: schemas.ChunkParams,
      response: { 200: { description: 'The chunk bytes.', content: { 'application/octet-stream': { schema: {} } } }, ...problems(401, 403, 404, 429) },
    },
    config: { access: 'view' },
  }, async (request, reply) => {
    const { chunk, data } = await readChunk(deps, actorOf(request), request.params.sessionId, request.params.chunkId)
    return reply.type(chunk.contentType).header('etag', `"${chunk.sha256}"`).send(Buffer.from(data.buffer, data.byteOffset, data.byteLength))
  })
}
