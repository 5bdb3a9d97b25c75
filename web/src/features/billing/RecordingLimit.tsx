// What the plan stops now, said where it is met: the record page told nobody that the workspace's
// plan refuses new recordings (402 seat_limit_exceeded / plan_inactive) until Start had opened the
// microphone; it now says so first, in the billing page's words, with a link there.
import { useI18n, type MessageKey } from '../../lib/i18n.ts'
import { Link } from '../../lib/ui.tsx'
import { useBilling } from './api.ts'

/** The plan's limit on recording, if one applies now (undefined while the summary loads or without billing). */
export function useRecordingLimit() {
  const summary = useBilling()
  return summary.data?.limits.find((limit) => limit.feature === 'recording')
}

export function RecordingLimitNotice() {
  const { t } = useI18n()
  const limit = useRecordingLimit()
  if (!limit) return null
  const known = limit.code === 'seat_limit_exceeded' || limit.code === 'plan_inactive'
  return (
    <p className="warning" role="status" data-testid="recording-limit">
      {known ? t(`record.limit.${limit.code}` as MessageKey) : limit.detail}{' '}
      <Link href="/billing">{t('record.limit.billing')}</Link>
    </p>
  )
}
