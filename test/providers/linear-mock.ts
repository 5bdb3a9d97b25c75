// A mock of Linear's GraphQL API: the hand-written description of the part Confer uses
// (test/providers/linear-schema.ts, written from Linear's API reference) served by graphql-js
// (parse, validate, execute: what graphql-yoga does per request; yoga's types pull the DOM library
// into the project's typecheck) with mocked resolvers. A query with an unknown field, a missing
// required argument or input field, or a wrong type is refused as Linear would refuse it; so is a
// field or argument Linear has but the description leaves out (add it there, from the reference).
// Records each operation.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { addMocksToSchema } from '@graphql-tools/mock'
import { makeExecutableSchema } from '@graphql-tools/schema'
import { createRequire } from 'node:module'
import { linearSchema } from './linear-schema.ts'

export type LinearOperation = { query: string; variables: Record<string, unknown>; errors: string[]; authorization: string | undefined }
/** `acceptedKey`: when set, a request whose Authorization is another key is refused as Linear refuses one. */
export type LinearMock = { url: string; operations: LinearOperation[]; acceptedKey: string | undefined; close(): Promise<void> }

// The graphql module of @graphql-tools' own realm: a second copy (the test runner may resolve
// `graphql` to its ESM build) refuses a schema built by the first.
const { graphql } = createRequire(createRequire(import.meta.url).resolve('@graphql-tools/schema'))('graphql') as typeof import('graphql')

export async function startLinearMock(): Promise<LinearMock> {
  let counter = 0
  const schema = addMocksToSchema({
    schema: makeExecutableSchema({ typeDefs: linearSchema }),
    mocks: {
      DateTime: () => new Date().toISOString(),
      TimelessDate: () => '2026-12-04',
      Issue: () => ({ identifier: `ENG-${(counter += 1)}`, url: `https://linear.app/confer/issue/ENG-${counter}`, title: 'Mocked issue' }),
      IssueSearchResult: () => ({ identifier: `ENG-${(counter += 1)}`, url: `https://linear.app/confer/issue/ENG-${counter}`, title: 'Mocked billing issue' }),
      IssuePayload: () => ({ success: true }),
      PageInfo: () => ({ hasNextPage: false, endCursor: null }),
    },
  })
  const operations: LinearOperation[] = []
  const mock: LinearMock = { url: '', operations, acceptedKey: undefined, close: () => new Promise((resolve) => { server.close(() => resolve()); server.closeAllConnections() }) }
  const server: Server = createServer((request, response) => {
    answer(request, response).catch((error: Error) => {
      operations.push({ query: '', variables: {}, errors: [`mock failure: ${error.message}`], authorization: undefined })
      response.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ errors: [{ message: error.message }] }))
    })
  })
  async function answer(request: import('node:http').IncomingMessage, response: import('node:http').ServerResponse) {
    const chunks: Buffer[] = []
    for await (const chunk of request) chunks.push(chunk as Buffer)
    const body = Buffer.concat(chunks).toString('utf8')
    const sent = (() => { try { return JSON.parse(body) } catch { return {} } })()
    const authorization = request.headers.authorization
    if (mock.acceptedKey !== undefined && authorization?.replace(/^Bearer\s+/i, '') !== mock.acceptedKey) {
      // Linear's answer to a key it does not accept: an error whose extensions.type is "authentication error".
      const message = 'Authentication required, not authenticated'
      operations.push({ query: sent.query ?? '', variables: sent.variables ?? {}, errors: [message], authorization })
      response.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({
        errors: [{ message, extensions: { type: 'authentication error', code: 'AUTHENTICATION_ERROR', userPresentableMessage: 'You need to authenticate to access this operation.' } }],
      }))
      return
    }
    const result = request.method === 'POST' && typeof sent.query === 'string'
      ? await graphql({ schema, source: sent.query, variableValues: sent.variables ?? {}, ...(sent.operationName ? { operationName: sent.operationName } : {}) })
      : { errors: [{ message: 'POST a JSON body with a query' }] }
    const errors = (result.errors ?? []).map((error) => error.message)
    operations.push({ query: sent.query ?? '', variables: sent.variables ?? {}, errors, authorization: request.headers.authorization })
    // A request the schema refuses (no data) is a 400, as GraphQL over HTTP servers answer.
    response.writeHead('data' in result && result.data ? 200 : 400, { 'content-type': 'application/json' }).end(JSON.stringify(result))
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  mock.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`
  return mock
}
