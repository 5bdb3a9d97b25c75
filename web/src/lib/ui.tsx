// Shared UI primitives: links through the router, error and status lines, page titles.
import { useEffect, type AnchorHTMLAttributes, type ReactNode } from 'react'
import { followLink } from '../app/router.ts'
import { useI18n } from './i18n.ts'

export function Link(props: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  return <a {...props} onClick={(event) => { props.onClick?.(event); followLink(event) }} />
}

export function ErrorLine({ error }: { error?: string }) {
  if (!error) return null
  return <p className="error" role="alert">{error}</p>
}

export function Loading() {
  const { t } = useI18n()
  return <p className="muted" role="status">{t('common.loading')}</p>
}

/** The page's <h1> and document title. */
export function PageTitle({ children, title }: { children: ReactNode; title: string }) {
  useEffect(() => { document.title = `${title} · Confer` }, [title])
  return <h1 tabIndex={-1} id="page-title">{children}</h1>
}

export function formatMs(ms: number): string {
  const total = Math.floor(ms / 1000)
  const minutes = Math.floor(total / 60)
  const seconds = String(total % 60).padStart(2, '0')
  return `${minutes}:${seconds}`
}
