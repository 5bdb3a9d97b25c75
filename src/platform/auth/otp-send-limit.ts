// At most 5 one-time codes per mailbox per hour (interface §8), counted in the database so the
// limit holds across restarts and nodes. The mailbox row is locked while counting, so concurrent
// requests cannot both slip under the limit.
import type { Database } from '../db/index.ts'
import { forUpdate } from '../db/dialect.ts'
import { newId } from '../ids.ts'

export const OTP_SENDS_PER_HOUR = 5
const HOUR_MS = 3_600_000

/** Records a send and returns 0, or returns the seconds to wait when the mailbox is at its limit. */
export async function reserveOtpSend(database: Database, rawEmail: string): Promise<number> {
  const email = rawEmail.trim().toLowerCase()
  const now = new Date()
  const windowStart = new Date(now.getTime() - HOUR_MS).toISOString()
  return database.db.transaction().execute(async (trx) => {
    await trx.insertInto('otp_mailboxes').values({ email, updated_at: now.toISOString() })
      .onConflict((oc) => oc.column('email').doUpdateSet({ updated_at: now.toISOString() }))
      .execute()
    await forUpdate(database.dialect, trx.selectFrom('otp_mailboxes').select('email').where('email', '=', email)).execute()
    const recent = await trx.selectFrom('otp_sends').select('sent_at')
      .where('email', '=', email).where('sent_at', '>', windowStart)
      .orderBy('sent_at', 'asc').execute()
    if (recent.length >= OTP_SENDS_PER_HOUR) {
      const oldest = new Date(recent[0]!.sent_at).getTime()
      return Math.max(1, Math.ceil((oldest + HOUR_MS - now.getTime()) / 1000))
    }
    await trx.insertInto('otp_sends').values({ id: newId('otp'), email, sent_at: now.toISOString() }).execute()
    await trx.deleteFrom('otp_sends').where('email', '=', email).where('sent_at', '<=', windowStart).execute()
    return 0
  })
}
