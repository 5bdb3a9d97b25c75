import type { LightMyRequestResponse } from 'fastify'
import { describe, expect, it } from 'vitest'
import { buildApp } from '../../app.ts'
import { openDatabase, type Database } from '../../platform/db/index.ts'
import { createTestDatabase } from '../../../test/databases.ts'
import { eachDatabase, testConfig } from '../../../test/harness.ts'

/** GET /healthz on an app built over `database`, closed afterwards. */
async function healthOver(database: Database, options: { migrate: boolean; closeFirst: boolean }): Promise<LightMyRequestResponse> {
  const app = await buildApp(testConfig(), { database, migrate: options.migrate })
  try {
    if (options.closeFirst) await database.close()
    return await app.inject({ method: 'GET', url: '/healthz' })
  } finally {
    await app.close()
  }
}

function expectUnavailable(response: LightMyRequestResponse, dialect: string) {
  expect(response.statusCode).toBe(503)
  expect(response.headers['content-type']).toMatch(/^application\/json/)
  expect(response.json()).toMatchObject({ status: 'unavailable', database: { dialect, reachable: false } })
}

eachDatabase('GET /healthz', (h) => {
  it('answers 200 with status ok and a reachable database, without a cookie', async () => {
    const response = await h.anonymous.get('/healthz')
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toMatch(/^application\/json/)
    expect(response.headers['set-cookie']).toBeUndefined()
    const body = response.json()
    expect(body).toMatchObject({
      status: 'ok',
      database: { dialect: h.kind, reachable: true },
      mail: 'outbox',
      blobStore: 'fs',
    })
    expect(body.version).toMatch(/^\d+\.\d+\.\d+$/)
    expect(body.uptimeSeconds).toBeGreaterThanOrEqual(0)
  })

  it('answers 503 with status unavailable when the database cannot be reached', async () => {
    const testDatabase = await createTestDatabase(h.kind)
    try {
      const response = await healthOver(openDatabase(testDatabase.target), { migrate: true, closeFirst: true })
      expectUnavailable(response, h.kind)
    } finally {
      await testDatabase.drop()
    }
  })
})

describe('GET /healthz with a PostgreSQL server that is not there', () => {
  it('answers 503 with status unavailable', async () => {
    const database = openDatabase({ kind: 'postgres', url: 'postgres://postgres@127.0.0.1:1/test' })
    try {
      const response = await healthOver(database, { migrate: false, closeFirst: false })
      expectUnavailable(response, 'postgres')
    } finally {
      await database.close()
    }
  })
})
