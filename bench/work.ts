// Work scenarios of `npm run bench`: one session with 50 work objects, each edited twice (three
// revisions) and given a review task; then GET /v1/worksets/{id} (50 objects, 150 revisions, 50
// review tasks in one answer) and PATCH /v1/workobjects/{id} (each connection edits its own object,
// carrying the hash the previous answer gave, so every PATCH writes a new revision).
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type autocannon from 'autocannon'
import { startProcess } from './servers.ts'

export const WORK_OBJECTS = 50

type Load = (url: string, headers?: Record<string, string>, options?: Partial<autocannon.Options>) => Promise<unknown>
/** prints a row; its ratio is to `baseline` when given, else to the small-JSON baseline of the run */
type Report = (name: string, figures: unknown, baseline?: unknown) => void

export async function seedWorkSet(baseUrl: string, cookie: string) {
  const origin = 'https://confer.bench.example' // BENCH_PUBLIC_ORIGIN (run.ts)
  const call = async (method: string, route: string, body: unknown) => {
    const response = await fetch(baseUrl + route, { method, headers: { 'content-type': 'application/json', origin, cookie }, body: JSON.stringify(body) })
    if (!response.ok) throw new Error(`${method} ${route} failed: ${response.status} ${await response.text()}`)
    return response.json() as Promise<{ id: string; workSetId: string; revisionHash: string }>
  }
  const session = await call('POST', '/v1/sessions', { captureMode: 'microphone' })
  const objects: { id: string; revisionHash: string }[] = []
  let workSetId = ''
  for (let start = 0; start < WORK_OBJECTS; start += 10) {
    objects.push(...await Promise.all(Array.from({ length: 10 }, async (_, offset) => {
      const index = start + offset + 1
      let object = await call('POST', `/v1/sessions/${session.id}/workobjects`, {
        kind: 'action', title: `Follow up on item ${index}`, summary: 'Send the notes to the team and collect feedback by Friday.',
      })
      workSetId = object.workSetId
      for (const version of [2, 3]) {
        object = await call('PATCH', `/v1/workobjects/${object.id}`, {
          expectedRevisionHash: object.revisionHash, content: { title: `Follow up on item ${index} (v${version})`, summary: 'Send the notes to the team and collect feedback by Friday.' },
        })
      }
      return object
    })))
  }
  return { workSetId, objects }
}

export async function benchWork(label: string, baseUrl: string, cookie: string, load: Load, report: Report) {
  const { workSetId, objects } = await seedWorkSet(baseUrl, cookie)
  const detailUrl = `${baseUrl}/v1/worksets/${workSetId}`
  const detail = Buffer.from(await (await fetch(detailUrl, { headers: { cookie } })).arrayBuffer())
  const sameSize = await sameSizeBaseline(detail, load)
  report(`baseline: bare node:http, the same ${(detail.length / 1000).toFixed(0)} KB (${label})`, sameSize, sameSize)
  const figures = await load(detailUrl, { cookie })
  report(`GET /v1/worksets/{id}, ${WORK_OBJECTS} objects (${label})`, figures, sameSize)
  report(`  the same against the small-JSON baseline (${label})`, figures)
  // autocannon resets a connection's context before each request, so the object a connection
  // edits cannot live there: each request takes an object no other request is editing and gives
  // it back with its new hash (last in, first out: a connection gets its own object back).
  const idle = [...objects]
  let edits = 0
  type Context = { object?: { id: string; revisionHash: string } }
  report(`PATCH /v1/workobjects/{id} (${label})`, await load(baseUrl, {}, {
    connections: Math.min(WORK_OBJECTS, objects.length),
    requests: [{
      setupRequest: (request, context: Context) => {
        const object = idle.pop()
        if (!object) throw new Error('more PATCH connections than work objects')
        context.object = object
        edits += 1
        return {
          ...request, method: 'PATCH', path: `/v1/workobjects/${object.id}`,
          headers: { 'content-type': 'application/json', cookie },
          body: JSON.stringify({ expectedRevisionHash: object.revisionHash, content: { title: `Edit ${edits}` } }),
        }
      },
      onResponse: (status, body, context: Context) => {
        if (status === 200) context.object!.revisionHash = (JSON.parse(body) as { revisionHash: string }).revisionHash
        // A 409 stale_revision (counted as non-2xx) names the current hash: the next edit uses it.
        if (status === 409) context.object!.revisionHash = (JSON.parse(body) as { currentRevisionHash: string }).currentRevisionHash
        idle.push(context.object!)
      },
    }],
  }))
}

/** A bare node:http server answering the work set's own bytes: what the answer costs without Confer. */
async function sameSizeBaseline(body: Buffer, load: Load) {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'confer-bench-body-')), 'detail.json')
  writeFileSync(file, body)
  const server = await startProcess('bench/baseline-server.ts', { BASELINE_BODY_FILE: file }, '/')
  try {
    return await load(server.url)
  } finally {
    await server.stop()
  }
}
