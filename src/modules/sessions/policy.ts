// Pure rules of capture sessions: who may feed a session audio, and which state changes exist.
import type { CaptureSessionState } from '../../platform/db/tables.ts'

/** recording → processing → ready | failed (DESIGN §5); a failed session may be processed again (retry). */
const TRANSITIONS: Record<CaptureSessionState, CaptureSessionState[]> = {
  recording: ['processing'],
  processing: ['ready', 'failed'],
  ready: [],
  failed: ['processing'],
}

export const canMoveSession = (from: CaptureSessionState, to: CaptureSessionState): boolean => TRANSITIONS[from].includes(to)

/** Audio comes from the device that records: the account that started the session. */
export const canUploadAudio = (accountId: string, session: { account_id: string }): boolean => session.account_id === accountId

/** A session still recording cannot be archived: it would vanish from the list while capturing. */
export const canArchive = (state: CaptureSessionState): boolean => state !== 'recording'
