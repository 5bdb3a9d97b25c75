// Work scenarios of `npm run bench`: one session with 50 work objects, each edited twice (three
// revisions) and given a review task; then GET /v1/worksets/{id} (50 objects, 150 revisions, 50
// review tasks in one answer) and PATCH /v1/workobjects/{id} (each connection edits its own object,
// carrying the hash the previous answer gave, so every PATCH writes a new revision).
import type autocannon from 'autocannon'

export const WORK_OBJECTS = 50

type Load = (url: string, headers?: Record<string, string>, options?: Partial<autocannon.Options>) => Promise<unknown>

export async function seedWorkSet(baseUrl: string, cookie: string) {
  const origin = `http://localhost:${new URL(baseUrl).port}`
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

export async function benchWork(label: string, baseUrl: string, cookie: string, load: Load, report: (name: string, figures: unknown) => void) {
  const { workSetId, objects } = await seedWorkSet(baseUrl, cookie)
  report(`GET /v1/worksets/{id}, ${WORK_OBJECTS} objects (${label})`, await load(`${baseUrl}/v1/worksets/${workSetId}`, { cookie }))
  let connections = 0
  let edits = 0
  type Context = { object?: { id: string; revisionHash: string } }
  report(`PATCH /v1/workobjects/{id} (${label})`, await load(baseUrl, {}, {
    connections: Math.min(WORK_OBJECTS, objects.length),
    requests: [{
      setupRequest: (request, context: Context) => {
        context.object ??= objects[(connections += 1) % objects.length]!
        edits += 1
        return {
          ...request, method: 'PATCH', path: `/v1/workobjects/${context.object.id}`,
          headers: { 'content-type': 'application/json', cookie },
          body: JSON.stringify({ expectedRevisionHash: context.object.revisionHash, content: { title: `Edit ${edits}` } }),
        }
      },
      onResponse: (status, body, context: Context) => {
        if (status === 200) context.object!.revisionHash = (JSON.parse(body) as { revisionHash: string }).revisionHash
      },
    }],
  }))
}
