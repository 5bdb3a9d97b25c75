// Slack through @slack/web-api: post a message to a channel (a decision announced where the team
// talks) and the channel list as field options (Slack's cursor paging). Slack answers failures as
// HTTP 200 `{ok: false, error}`; rate limits as 429 with Retry-After. chat.postMessage has no
// idempotency key, so it is sent at most once unless Slack refused it with 429.
import type { WebAPICallError } from '@slack/web-api'
import { Type } from 'typebox'
import { providerError, ProviderError, type ConnectionContext, type Connector } from './types.ts'

const ChannelId = Type.String({ pattern: '^[CGD][A-Z0-9]{2,20}$', description: 'A channel id (C…), not its name.' })

// The SDK loads on first use: a server that never calls Slack does not pay for it at start.
async function client(context: ConnectionContext) {
  const { WebClient } = await import('@slack/web-api')
  return new WebClient(context.credential.accessToken ?? context.credential.apiKey, {
    slackApiUrl: context.config.integrations.slackApiUrl,
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    logLevel: undefined,
    logger: { debug() {}, info() {}, warn() {}, error() {}, setLevel() {}, getLevel: () => 'error' as never, setName() {} },
  })
}

/** Slack's errors for a token it does not accept (auth.test's reference). */
const REFUSED_TOKEN = new Set(['invalid_auth', 'not_authed', 'account_inactive', 'token_revoked', 'token_expired'])

async function call<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    const failure = error as WebAPICallError & { retryAfter?: number; statusCode?: number; data?: { error?: string } }
    switch (failure.code as string) {
      case 'slack_webapi_rate_limited_error':
        throw new ProviderError('Slack: rate limited', { status: 429, retryable: true, retryAfterMs: (failure.retryAfter ?? 1) * 1000 })
      case 'slack_webapi_platform_error':
        throw new ProviderError(`Slack: ${failure.data?.error ?? 'error'}`, { status: REFUSED_TOKEN.has(failure.data?.error ?? '') ? 401 : 400, retryable: false })
      case 'slack_webapi_http_error':
        throw providerError(failure.statusCode, `Slack: HTTP ${failure.statusCode}`)
      default:
        throw providerError(undefined, `Slack: ${(failure.message ?? '').slice(0, 200)}`)
    }
  }
}

export const slackConnector: Connector = {
  service: 'slack',
  title: 'Slack',
  authTypes: ['api_key', 'oauth'],
  credential: Type.Object({ apiKey: Type.String({ pattern: '^xox[bp]-', maxLength: 500, description: 'A bot token (xoxb-…) with chat:write and channels:read.' }) }, { additionalProperties: false }),
  settings: Type.Object({ channel: Type.Optional(ChannelId) }, { additionalProperties: false }),
  actions: [{
    id: 'slack.post_message',
    version: 1,
    title: 'Post a Slack message',
    description: 'Posts a message to a Slack channel.',
    input: Type.Object({
      channel: ChannelId,
      text: Type.String({ minLength: 1, maxLength: 4000 }),
    }, { additionalProperties: false }),
    optionFields: ['channel'],
    retry: 'once',
  }],

  async verify(context) {
    await call(async () => (await client(context)).auth.test())
  },

  async fieldOptions(context, _actionId, _field, { query, cursor }) {
    const answer = await call(async () => (await client(context)).conversations.list({ exclude_archived: true, types: 'public_channel,private_channel', limit: 200, ...(cursor ? { cursor } : {}) }))
    const needle = query.trim().toLowerCase()
    const options = (answer.channels ?? []).filter((channel) => channel.id && channel.name)
      .map((channel) => ({ value: channel.id!, label: `#${channel.name!}` }))
      .filter((option) => !needle || option.label.toLowerCase().includes(needle))
    const next = answer.response_metadata?.next_cursor
    return { options, ...(next ? { nextCursor: next } : {}) }
  },

  async execute(context, _actionId, payload) {
    const input = payload as { channel: string; text: string }
    const answer = await call(async () => (await client(context)).chat.postMessage({ channel: input.channel, text: input.text }))
    return { externalId: `${answer.channel}/${answer.ts}`, summary: `Posted to ${answer.channel}`, channel: answer.channel, ts: answer.ts }
  },
}
