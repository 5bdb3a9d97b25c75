// Written by hand from Slack's public Web API reference (docs.slack.dev/reference/methods): ONLY
// the methods Confer's Slack connector (src/modules/integrations/connectors/slack.ts) calls, and of
// each only the arguments it sends, with Slack's names, types, required flags and allowed values.
// The mock (test/providers/slack-mock.ts) refuses any other method or argument: when the connector
// starts to send a new one, check it in Slack's reference and add it here with the reference's type.
// Every method takes the token as `Authorization: Bearer <token>` (Slack also accepts a `token`
// argument; the SDK sends the header, so the mock requires it).

export type SlackArgument = {
  type: 'string' | 'boolean' | 'integer'
  required?: boolean
  /** for a comma-separated list: the values each item may take */
  listOf?: readonly string[]
  maximum?: number
}

export type SlackMethod = {
  /** the HTTP method the reference lists; every Web API method also accepts a form-encoded POST */
  http: 'GET' | 'POST'
  scopes: readonly string[]
  arguments: Record<string, SlackArgument>
  /** at least one of these must be present (Slack documents alternatives the connector does not use) */
  oneOf?: readonly string[]
}

export const slackApi: Record<string, SlackMethod> = {
  // https://docs.slack.dev/reference/methods/auth.test (no arguments; any token may call it)
  'auth.test': {
    http: 'POST',
    scopes: [],
    arguments: {},
  },
  // https://docs.slack.dev/reference/methods/chat.postMessage
  'chat.postMessage': {
    http: 'POST',
    scopes: ['chat:write'],
    arguments: {
      channel: { type: 'string', required: true },
      // One of text, blocks or attachments is required; Confer sends text only.
      text: { type: 'string' },
    },
    oneOf: ['text'],
  },
  // https://docs.slack.dev/reference/methods/conversations.list
  'conversations.list': {
    http: 'GET',
    scopes: ['channels:read', 'groups:read', 'im:read', 'mpim:read'],
    arguments: {
      cursor: { type: 'string' },
      exclude_archived: { type: 'boolean' },
      limit: { type: 'integer', maximum: 1000 },
      types: { type: 'string', listOf: ['public_channel', 'private_channel', 'mpim', 'im'] },
    },
  },
}
