// The workspace's billing: plan, status, seats, period end and what is limited now; managers open
// Stripe Checkout ("Upgrade") or the billing portal ("Manage billing"). A self-hosted server says
// billing is off and nothing is limited.
import { useAction } from '../../lib/api.ts'
import { useI18n, type MessageKey } from '../../lib/i18n.ts'
import { ErrorLine, Loading, PageTitle } from '../../lib/ui.tsx'
import { billing, follow, useBilling } from './api.ts'

const LIMIT_SENTENCES: Record<string, MessageKey> = {
  seat_limit_reached: 'billing.limit.seat_limit_reached',
  seat_limit_exceeded: 'billing.limit.seat_limit_exceeded',
  plan_inactive: 'billing.limit.plan_inactive',
}

const STATUSES = new Set(['active', 'trialing', 'past_due', 'unpaid', 'canceled', 'incomplete', 'incomplete_expired', 'paused', 'none'])

export function BillingPage() {
  const { t, dateTime } = useI18n()
  const summary = useBilling()
  const { busy, error, run } = useAction()
  const data = summary.data
  return (
    <section className="billing">
      <PageTitle title={t('billing.title')}>{t('billing.title')}</PageTitle>
      {!data && summary.error ? <ErrorLine error={summary.error.message} /> : null}
      {!data && !summary.error ? <Loading /> : null}
      {data ? (
        <>
          {!data.billingEnabled ? <p className="notice" data-testid="billing-off">{t('billing.selfHosted')}</p> : null}
          <dl className="facts">
            <dt>{t('billing.plan')}</dt><dd data-testid="billing-plan">{t(`billing.plan.${data.plan}` as MessageKey)}</dd>
            <dt>{t('billing.status')}</dt><dd>{STATUSES.has(data.status) ? t(`billing.status.${data.status}` as MessageKey) : data.status}</dd>
            <dt>{t('billing.seats')}</dt>
            <dd>{data.seats.allowed === undefined ? t('billing.seatsUnlimited', { used: data.seats.used }) : t('billing.seatsOf', { used: data.seats.used, allowed: data.seats.allowed })}</dd>
            {data.currentPeriodEnd ? (
              <><dt>{data.cancelAtPeriodEnd ? t('billing.endsOn') : t('billing.renewsOn')}</dt><dd>{dateTime(data.currentPeriodEnd)}</dd></>
            ) : null}
          </dl>
          <h2>{t('billing.limits')}</h2>
          {data.limits.length === 0 ? <p>{t('billing.noLimits')}</p> : (
            <ul>
              {data.limits.map((limit) => (
                <li key={`${limit.feature}-${limit.code}`}>
                  {LIMIT_SENTENCES[limit.code] ? t(LIMIT_SENTENCES[limit.code]!, { feature: t(`billing.feature.${limit.feature}` as MessageKey) }) : limit.detail}
                </li>
              ))}
            </ul>
          )}
          {data.canManage ? (
            <div className="row">
              {data.plan !== 'team' || data.status === 'none' || data.status === 'canceled'
                ? <button type="button" className="primary" disabled={busy} onClick={() => void run(billing.checkout).then(follow)}>{t('billing.upgrade')}</button>
                : null}
              {data.plan === 'team' ? <button type="button" disabled={busy} onClick={() => void run(billing.portal).then(follow)}>{t('billing.manage')}</button> : null}
            </div>
          ) : data.billingEnabled ? <p className="muted">{t('billing.managersOnly')}</p> : null}
          <ErrorLine error={error} />
        </>
      ) : null}
    </section>
  )
}
