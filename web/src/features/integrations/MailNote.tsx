// A server without SMTP_URL keeps every email in its outbox table (and, outside production, its log):
// nothing reaches the addressee. Connecting Email said "No credential needed", and sending one said
// "Sent to 1 recipient"; the connect form and an email's recommendation now say it first (`mail` of
// /healthz: `smtp` or `outbox`).
import { useResource } from '../../lib/api.ts'
import { useI18n } from '../../lib/i18n.ts'

export function MailOutboxNote() {
  const { t } = useI18n()
  const health = useResource<{ mail?: string }>('/healthz')
  if (health.data?.mail !== 'outbox') return null
  return <p className="warning" data-testid="mail-outbox">{t('integrations.mailOutbox')}</p>
}
