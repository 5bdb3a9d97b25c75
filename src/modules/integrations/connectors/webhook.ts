// A generic outgoing webhook signed per the Standard Webhooks specification (standardwebhooks):
// `webhook-id` is the action's id, so a retry is the same message and receivers drop duplicates.
import { Type } from 'typebox'
import { Webhook } from 'standardwebhooks'
import { ProviderError, providerError, type Connector } from './types.ts'

export const webhookConnector: Connector = {
  service: 'webhook',
  title: 'Outgoing webhook (Standard Webhooks)',
  authTypes: ['custom_credential'],
  credential: Type.Object({
    signingSecret: Type.String({ pattern: '^whsec_[A-Za-z0-9+/=]{24,}$', description: 'The receiver\'s signing secret, `whsec_<base64>`.' }),
  }, { additionalProperties: false }),
  settings: Type.Object({ url: Type.String({ format: 'uri', pattern: '^https?://', maxLength: 2000 }) }, { additionalProperties: false }),
  actions: [{
    id: 'webhook.send',
    version: 1,
    title: 'Send a signed webhook',
    description: 'POSTs a JSON event to the connection\'s URL, signed per Standard Webhooks.',
    input: Type.Object({
      type: Type.String({ minLength: 1, maxLength: 100, pattern: '^[a-z0-9_.-]+$' }),
      data: Type.Object({}, { additionalProperties: true }),
    }, { additionalProperties: false }),
    optionFields: [],
    retry: 'idempotent',
  }],

  async execute(context, _actionId, payload, { actionRowId }) {
    const url = String(context.settings.url ?? '')
    if (!/^https?:\/\//.test(url)) throw providerError(400, 'the webhook connection has no URL')
    const body = JSON.stringify({ type: payload.type, timestamp: new Date().toISOString(), data: payload.data })
    const sentAt = new Date()
    const signature = new Webhook(context.credential.signingSecret!).sign(actionRowId, sentAt, body)
    let response: Response
    try {
      response = await fetch(url, {
        method: 'POST', body, signal: context.signal, redirect: 'manual',
        headers: {
          'content-type': 'application/json', 'webhook-id': actionRowId,
          'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)), 'webhook-signature': signature,
        },
      })
    } catch (error) {
      // fetch says only "fetch failed"; why (refused, unknown host, timeout) is its cause's code, or
      // its cause's message when it has no code (a port fetch refuses to call: "bad port").
      const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause
      const why = typeof cause?.code === 'string' ? cause.code : typeof cause?.message === 'string' && cause.message ? cause.message : (error as Error).message
      // A port fetch refuses to call (the Fetch standard's blocked ports) is refused the same way on
      // every attempt: the execution fails at once instead of being retried to the attempt limit.
      if (why === 'bad port') throw new ProviderError(`webhook: could not reach ${new URL(url).host}: bad port (fetch never calls this port; use another)`, { retryable: false })
      throw providerError(undefined, `webhook: could not reach ${new URL(url).host}: ${why}`)
    }
    if (!response.ok) throw providerError(response.status, `webhook: the receiver answered ${response.status}`, response.headers.get('retry-after'))
    return { externalId: actionRowId, summary: `Delivered to ${new URL(url).host} (${response.status})`, status: response.status }
  },
}
