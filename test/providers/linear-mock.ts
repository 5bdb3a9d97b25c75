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
export type LinearMock = { url: string; operations: LinearOperation[]; close(): Promise<void> }

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
    const result = request.method === 'POST' && typeof sent.query === 'string'
      ? await graphql({ schema, source: sent.query, variableValues: sent.variables ?? {}, ...(sent.operationName ? { operationName: sent.operationName } : {}) })
      : { errors: [{ message: 'POST a JSON body with a query' }] }
    const errors = (result.errors ?? []).map((error) => error.message)
    operations.push({ query: sent.query ?? '', variables: sent.variables ?? {}, errors, authorization: request.headers.authorization })
    // A request the schema refuses (no data) is a 400, as GraphQL over HTTP servers answer.
    response.writeHead('data' in result && result.data ? 200 : 400, { 'content-type': 'application/json' }).end(JSON.stringify(result))
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`, operations, close: () => new Promise((resolve) => { server.close(() => resolve()); server.closeAllConnections() }) }
}
