// The calendar connector against a real CalDAV server (radicale): a dated follow-up is recommended
// as an all-day event, prepared, approved and executed; the event is in the calendar once, also
// when the same action is delivered twice.
import { DAVClient } from 'tsdav'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { eachDatabase } from '../../../test/harness.ts'
import { startRadicale, type Radicale } from '../../../test/providers/radicale.ts'
import { capture, workTeam } from '../work/testing.ts'
import { caldavConnector } from './connectors/caldav.ts'

let radicale: Radicale
beforeAll(async () => {
  radicale = await startRadicale()
})
afterAll(async () => {
  await radicale?.close()
})

async function events() {
  const client = new DAVClient({ serverUrl: radicale.url, credentials: { username: radicale.username, password: radicale.password }, authMethod: 'Basic', defaultAccountType: 'caldav' })
  await client.login()
  const [calendar] = (await client.fetchCalendars()).filter((candidate) => candidate.url.startsWith(radicale.calendarUrl))
  return client.fetchCalendarObjects({ calendar: calendar! })
}

eachDatabase('calendar over CalDAV', (h) => {
  it('turns a dated follow-up into one all-day event in the calendar', async () => {
    const team = await workTeam(h, [])
    const project = (await team.owner.post('/v1/projects', { name: 'Calendar' })).json()
    const connection = await team.owner.post('/v1/integrations/connections/credential', {
      projectId: project.id, service: 'caldav', authType: 'custom_credential', credential: { username: radicale.username, password: radicale.password },
      actionIds: ['caldav.create_event'], settings: { serverUrl: radicale.url, calendarUrl: radicale.calendarUrl },
    })
    expect(connection.statusCode, connection.body).toBe(200)
    expect(connection.body).not.toContain(radicale.password)

    const calendars = await team.owner.post('/v1/integrations/actions/field-options', {
      projectId: project.id, connectionId: connection.json().id, actionId: 'caldav.create_event', field: { name: 'calendarUrl' }, query: 'follow',
    })
    expect(calendars.statusCode, calendars.body).toBe(200)
    expect(calendars.json().options).toEqual([{ value: radicale.calendarUrl, label: 'Follow-ups' }])

    const followUp = await capture(team.owner, team.sessionId, { kind: 'action', title: `Send the launch recap ${h.kind}`, targetProjectId: project.id })
    await h.database.db.updateTable('work_objects').set({ due_date: '2026-12-04' }).where('id', '=', followUp.id).execute()
    const drafted = (await team.owner.post(`/v1/work-objects/${followUp.id}/action-recommendations/refresh`, {})).json()
    const recommendation = drafted.recommendations.find((candidate: { actionId: string }) => candidate.actionId === 'caldav.create_event')
    expect(recommendation).toMatchObject({ input: { summary: `Send the launch recap ${h.kind}`, start: '2026-12-04' }, reason: expect.stringContaining('2026-12-04') })
    expect(recommendation.input.description).toContain(followUp.id)

    const prepared = (await team.owner.post(`/v1/action-recommendations/${recommendation.id}/prepare`, {})).json()
    const token = (await team.owner.post(`/v1/actions/${prepared.id}/approve`, { expectedPayloadHash: prepared.payloadHash })).json().approvalToken
    const executed = (await team.owner.post(`/v1/actions/${prepared.id}/execute`, { approvalToken: token })).json()
    await h.app.deps.jobs.drain()
    const execution = (await team.owner.get(`/v1/executions/${executed.receipt.executionId}`)).json()
    expect(execution).toMatchObject({ state: 'succeeded', receipt: { externalId: prepared.id, url: `${radicale.calendarUrl}${prepared.id}.ics` } })

    const mine = (await events()).filter((event) => event.url.includes(prepared.id))
    expect(mine).toHaveLength(1)
    expect(mine[0]!.data).toContain(`UID:${prepared.id}`)
    expect(mine[0]!.data).toContain('DTSTART;VALUE=DATE:20261204')

    // Delivered again (a retry after a lost answer): the server keeps the one event.
    const context = { connectionId: connection.json().id, credential: { username: radicale.username, password: radicale.password }, settings: { serverUrl: radicale.url, calendarUrl: radicale.calendarUrl }, config: h.config, mailer: h.app.deps.mailer }
    const again = await caldavConnector.execute(context, 'caldav.create_event', prepared.payload, { actionRowId: prepared.id, executionId: executed.receipt.executionId })
    expect(again).toMatchObject({ alreadyThere: true })
    expect((await events()).filter((event) => event.url.includes(prepared.id))).toHaveLength(1)

    // A wrong password is refused by the server, and the execution fails without retrying.
    const wrong = caldavConnector.execute({ ...context, credential: { username: radicale.username, password: 'wrong' } }, 'caldav.create_event', prepared.payload, { actionRowId: 'act_wrong', executionId: 'exe_wrong' })
    await expect(wrong).rejects.toMatchObject({ retryable: false })
  })
})
