// Email through the server's own mailer (SMTP when SMTP_URL is set, else the outbox table): a
// decision or follow-up sent to named addresses. Sending twice would mail twice: never retried
// once the call may have gone out.
import { Type } from 'typebox'
import { providerError, type Connector } from './types.ts'

export const emailConnector: Connector = {
  service: 'email',
  title: 'Email (the server\'s SMTP)',
  authTypes: ['no_auth'],
  credential: undefined,
  settings: Type.Object({}, { additionalProperties: false }),
  actions: [{
    id: 'email.send',
    version: 1,
    title: 'Send an email',
    description: 'Sends a plain-text email through the server\'s mail transport.',
    input: Type.Object({
      to: Type.Array(Type.String({ format: 'email', maxLength: 254 }), { minItems: 1, maxItems: 20 }),
      subject: Type.String({ minLength: 1, maxLength: 200 }),
      text: Type.String({ minLength: 1, maxLength: 20_000 }),
    }, { additionalProperties: false }),
    optionFields: [],
    retry: 'once',
  }],

  async execute(context, _actionId, payload, { actionRowId }) {
    const input = payload as { to: string[]; subject: string; text: string }
    try {
      for (const to of input.to) await context.mailer.send({ to, subject: input.subject, text: input.text })
    } catch (error) {
      throw providerError(undefined, `email: ${(error as Error).message.slice(0, 200)}`)
    }
    const recipients = `${input.to.length} recipient${input.to.length === 1 ? '' : 's'}`
    // Without SMTP_URL the message only reaches the outbox table (and, outside production, the log):
    // "Sent" would tell the person it was mailed when nobody received it.
    const summary = context.mailer.delivers
      ? `Sent to ${recipients}`
      : `Not mailed: this server has no SMTP_URL, so the email to ${recipients} was only kept in its outbox`
    return { externalId: actionRowId, summary, delivered: context.mailer.delivers }
  },
}
