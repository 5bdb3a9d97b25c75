// Outgoing mail. With SMTP_URL set, nodemailer delivers it; without, the message is kept in the
// mail_outbox table (and, outside production, its text is logged) so a self-hoster can still sign in.
import nodemailer from 'nodemailer'
import type { FastifyBaseLogger } from 'fastify'
import type { Config } from '../../config.ts'
import type { Db } from '../db/index.ts'
import { newId, nowIso } from '../ids.ts'

export type MailMessage = {
  to: string; subject: string; text: string
  /** a short value the reader came for (a sign-in code): when the message is only logged, it stands on its own line */
  highlight?: string
}

export type Mailer = {
  /** true when messages leave the machine (SMTP); false when they only reach the outbox table */
  readonly delivers: boolean
  send(message: MailMessage): Promise<void>
  close(): void
}

export function createMailer(config: Config, db: Db, log: FastifyBaseLogger): Mailer {
  const transport = config.smtpUrl ? nodemailer.createTransport(config.smtpUrl) : undefined
  const record = (message: MailMessage, status: 'sent' | 'stored' | 'failed', error?: string) =>
    db.insertInto('mail_outbox').values({
      id: newId('msg'),
      to_address: message.to,
      subject: message.subject,
      // Only undelivered mail keeps its text: the outbox is then the delivery channel.
      body_text: status === 'stored' ? message.text : null,
      status,
      error: error ?? null,
      created_at: nowIso(),
    }).execute()

  return {
    delivers: transport !== undefined,
    async send(message) {
      if (!transport) {
        await record(message, 'stored')
        if (config.nodeEnv !== 'production') {
          log.info({ mailTo: message.to }, message.highlight
            ? `mail (no SMTP_URL) to ${message.to}: ${message.subject}\n\n    ${message.highlight}\n`
            : `mail (no SMTP_URL): ${message.subject}\n${message.text}`)
        }
        return
      }
      try {
        await transport.sendMail({ from: config.mailFrom, to: message.to, subject: message.subject, text: message.text })
        await record(message, 'sent')
      } catch (error) {
        log.error({ err: error, mailTo: message.to }, 'mail delivery failed')
        await record(message, 'failed', (error as Error).message)
        throw error
      }
    },
    close() {
      transport?.close()
    },
  }
}
