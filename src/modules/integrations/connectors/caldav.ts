// A calendar over CalDAV (tsdav + ical-generator): create an event, e.g. for a dated follow-up.
// The event's UID and file name are the action's id and the PUT carries If-None-Match: *, so a
// second delivery of the same action finds it there (412) and changes nothing: idempotent.
import type { DAVCalendar, DAVClient } from 'tsdav'
import { Type } from 'typebox'
import { providerError, ProviderError, type ConnectionContext, type Connector } from './types.ts'

const DateOrTime = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?(Z|[+-]\\d{2}:\\d{2}))?$', description: 'A date (all-day) or an ISO 8601 date-time with offset.' })

async function login(context: ConnectionContext) {
  // The client loads on first use: a server that never calls a calendar does not pay for it at start.
  const { DAVClient } = await import('tsdav')
  const serverUrl = String(context.settings.serverUrl ?? '')
  const client = new DAVClient({
    serverUrl, defaultAccountType: 'caldav', authMethod: 'Basic',
    credentials: { username: context.credential.username ?? '', password: context.credential.password ?? '' },
  })
  try {
    await client.login()
    return client
  } catch (error) {
    const message = (error as Error).message ?? ''
    throw providerError(/401|403|Unauthorized|Forbidden/i.test(message) ? 401 : undefined, `CalDAV: ${message.slice(0, 200)}`)
  }
}

async function calendarOf(client: DAVClient, url: string | undefined): Promise<DAVCalendar> {
  const calendars = await client.fetchCalendars()
  const calendar = url ? calendars.find((candidate) => candidate.url === url || candidate.url === `${url}/`) : calendars[0]
  if (!calendar) throw new ProviderError(url ? `CalDAV: no calendar at ${url}` : 'CalDAV: the account has no calendar', { status: 404, retryable: false })
  return calendar
}

const nextDay = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)

export const caldavConnector: Connector = {
  service: 'caldav',
  title: 'Calendar (CalDAV)',
  authTypes: ['custom_credential'],
  credential: Type.Object({
    username: Type.String({ minLength: 1, maxLength: 200 }),
    password: Type.String({ minLength: 1, maxLength: 500 }),
  }, { additionalProperties: false }),
  settings: Type.Object({
    serverUrl: Type.String({ format: 'uri', pattern: '^https?://', maxLength: 2000 }),
    calendarUrl: Type.Optional(Type.String({ format: 'uri', pattern: '^https?://', maxLength: 2000, description: 'The calendar events go to; default the account\'s first.' })),
  }, { additionalProperties: false }),
  actions: [{
    id: 'caldav.create_event',
    version: 1,
    title: 'Create a calendar event',
    description: 'Puts an event (all-day for a date) into a CalDAV calendar.',
    input: Type.Object({
      summary: Type.String({ minLength: 1, maxLength: 300 }),
      description: Type.Optional(Type.String({ maxLength: 10_000 })),
      start: DateOrTime,
      end: Type.Optional(DateOrTime),
      calendarUrl: Type.Optional(Type.String({ format: 'uri', pattern: '^https?://', maxLength: 2000 })),
    }, { additionalProperties: false }),
    optionFields: ['calendarUrl'],
    retry: 'idempotent',
  }],

  async fieldOptions(context, _actionId, _field, { query }) {
    const client = await login(context)
    const calendars = await client.fetchCalendars()
    const needle = query.trim().toLowerCase()
    const options = calendars.map((calendar) => ({ value: calendar.url, label: typeof calendar.displayName === 'string' && calendar.displayName ? calendar.displayName : calendar.url }))
    return { options: needle ? options.filter((option) => option.label.toLowerCase().includes(needle)) : options }
  },

  freeze(_actionId, input) {
    return input
  },

  async execute(context, _actionId, payload, { actionRowId }) {
    const input = payload as { summary: string; description?: string; start: string; end?: string; calendarUrl?: string }
    const client = await login(context)
    const calendar = await calendarOf(client, input.calendarUrl ?? (context.settings.calendarUrl as string | undefined))
    const allDay = input.start.length === 10
    const { default: ical } = await import('ical-generator')
    const feed = ical({ prodId: { company: 'confer', product: 'confer' } })
    feed.createEvent({
      id: actionRowId, summary: input.summary, ...(input.description ? { description: input.description } : {}),
      allDay, start: allDay ? new Date(`${input.start}T00:00:00Z`) : new Date(input.start),
      end: allDay ? new Date(`${input.end ?? nextDay(input.start)}T00:00:00Z`) : new Date(input.end ?? new Date(Date.parse(input.start) + 30 * 60_000).toISOString()),
    })
    const filename = `${actionRowId}.ics`
    const response = await client.createCalendarObject({ calendar, filename, iCalString: feed.toString() })
    // 412: an event with this file name exists already — the same action delivered before.
    if (!response.ok && response.status !== 412) throw providerError(response.status, `CalDAV: PUT answered ${response.status}`, response.headers.get('retry-after'))
    const url = new URL(filename, calendar.url.endsWith('/') ? calendar.url : `${calendar.url}/`).href
    return { externalId: actionRowId, url, summary: `Event "${input.summary}" on ${input.start.slice(0, 10)}`, alreadyThere: response.status === 412 }
  },
}
