// One recording per account in this browser. A person has one open meeting at a time (a second Start
// continues it: reusedExisting), so a second tab that started recording while the first still did
// sent the same meeting twice over, its audio doubled in one transcript. The tab that records holds a
// Web Lock named by the account until its recorder stops (or the tab closes); another tab sees the
// lock held and does not start. Where the browser has no Web Locks (a page served over plain http
// from another machine is not a secure context), nothing is checked, as before.
import { useEffect, useState } from 'react'

const lockName = (accountId: string) => `confer.recording.${accountId}`
const locks = (): LockManager | undefined => (typeof navigator !== 'undefined' ? navigator.locks : undefined)

/** Takes the account's recording lock if no other tab holds it; resolves to its release, or undefined when it is held. */
export function takeRecordingLock(accountId: string): Promise<(() => void) | undefined> {
  const manager = locks()
  if (!manager) return Promise.resolve(() => {})
  return new Promise((resolve) => {
    void manager.request(lockName(accountId), { ifAvailable: true }, (lock) => {
      if (!lock) { resolve(undefined); return undefined }
      // Held until released: the promise the callback returns keeps the lock.
      return new Promise<void>((release) => resolve(() => release()))
    })
  })
}

/** Whether another tab of this browser records for the account now (checked every 2 s while `watching`). */
export function useRecordingElsewhere(accountId: string | undefined, watching: boolean): boolean {
  const [held, setHeld] = useState(false)
  useEffect(() => {
    const manager = locks()
    if (!accountId || !watching || !manager) { setHeld(false); return }
    let live = true
    const check = () => manager.query().then((state) => {
      if (live) setHeld((state.held ?? []).some((lock) => lock.name === lockName(accountId)))
    }, () => {})
    void check()
    const timer = window.setInterval(() => void check(), 2000)
    return () => { live = false; window.clearInterval(timer) }
  }, [accountId, watching])
  return held
}
