// The open-work titles the work module offers transcription (deps.ports.openWorkTitles): open work
// of the workspace, not the session being transcribed, not another workspace's.
import { expect, it } from 'vitest'
import { eachDatabase } from '../../../test/harness.ts'
import { startRecording } from '../sessions/testing.ts'
import { capture } from './testing.ts'

eachDatabase('open work titles for the speech vocabulary', (h) => {
  it('lists open work of other sessions of the workspace, newest first', async () => {
    const owner = await h.member()
    const stranger = await h.member()
    const earlier = await startRecording(owner)
    await capture(owner, earlier.id, { title: 'Estimate the cost of managed Kafka' })
    await capture(owner, earlier.id, { kind: 'decision', title: 'Retention stays at thirty days' })
    expect((await owner.post(`/v1/sessions/${earlier.id}/end`)).statusCode).toBe(200)
    const current = await startRecording(owner)
    expect(current.id).not.toBe(earlier.id)
    await capture(owner, current.id, { title: 'Heard in this very session' })
    await capture(stranger, (await startRecording(stranger)).id, { title: 'Another workspace' })
    const list = h.app.deps.ports.openWorkTitles!
    expect(await list(h.app.deps.database.db, owner.workspaceId, { exceptSessionId: current.id, limit: 10 }))
      .toEqual(['Retention stays at thirty days', 'Estimate the cost of managed Kafka'])
    expect(await list(h.app.deps.database.db, owner.workspaceId, { exceptSessionId: current.id, limit: 1 })).toHaveLength(1)
  })
})
