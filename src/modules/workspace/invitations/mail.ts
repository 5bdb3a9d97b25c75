// The invitation message. It is mailed only when mail leaves the machine (SMTP); without SMTP the
// link is returned to the inviter alone, so the token never rests in the outbox table.
import type { AppDeps } from '../../../platform/deps.ts'

export type Delivery = 'email' | 'link'

export const inviteUrl = (deps: AppDeps, token: string) => `${deps.config.publicBase}/invite/${token}`

/** Sends the invitation when SMTP is configured; 'link' when it is not or the send failed. */
export async function deliverInvitation(deps: AppDeps, message: {
  to: string; inviteURL: string; inviterName: string; workspaceName: string; projectName?: string; expiresAt: string
}): Promise<Delivery> {
  if (!deps.mailer.delivers) return 'link'
  const where = message.projectName ? `${message.workspaceName} (project ${message.projectName})` : message.workspaceName
  const text = [
    `${message.inviterName} invited you to join ${where} on Confer.`,
    '',
    'Open this link to accept:',
    message.inviteURL,
    '',
    `The link works once and expires on ${message.expiresAt.slice(0, 16).replace('T', ' ')} UTC.`,
    'If you did not expect this invitation, you can ignore this message.',
  ].join('\n')
  try {
    await deps.mailer.send({ to: message.to, subject: `${message.inviterName} invited you to ${message.workspaceName} on Confer`, text })
    return 'email'
  } catch {
    // The mailer has logged and recorded the failure; the inviter still holds the link.
    return 'link'
  }
}
