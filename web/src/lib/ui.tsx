// Shared UI primitives: links through the router, error and status lines, page titles, a link to copy.
import { useEffect, useRef, useState, type AnchorHTMLAttributes, type ReactNode } from 'react'
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

/**
 * The page's <h1> and document title. A page that appears (a route change, signing in) moves the
 * focus to its heading, so keyboard and screen-reader users start at the new content.
 */
export function PageTitle({ children, title }: { children: ReactNode; title: string }) {
  const heading = useRef<HTMLHeadingElement>(null)
  useEffect(() => { document.title = `${title} · Confer` }, [title])
  useEffect(() => {
    const active = document.activeElement
    if (!active || active === document.body || !active.isConnected || active.closest('form, .otp') === null) heading.current?.focus({ preventScroll: true })
  }, [])
  return <h1 tabIndex={-1} id="page-title" ref={heading}>{children}</h1>
}

export function formatMs(ms: number): string {
  const total = Math.floor(ms / 1000)
  const minutes = Math.floor(total / 60)
  const seconds = String(total % 60).padStart(2, '0')
  return `${minutes}:${seconds}`
}

/**
 * A link to hand on (an invitation, a share link): shown whole, selected on focus, with a Copy
 * button that says when it worked. Where the clipboard is refused (an insecure origin, a denied
 * permission) the text is selected so the reader can copy it themselves.
 */
export function CopyField({ id, label, value, testId }: { id: string; label: string; value: string; testId?: string }) {
  const { t } = useI18n()
  const input = useRef<HTMLInputElement>(null)
  const [copied, setCopied] = useState<'yes' | 'no'>()
  useEffect(() => setCopied(undefined), [value])
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <div className="row copy-field">
        <input id={id} ref={input} readOnly value={value} data-testid={testId} onFocus={(event) => event.target.select()} />
        <button type="button" aria-label={`${t('session.copy')}: ${label}`} onClick={() => {
          const fallback = () => { input.current?.focus(); input.current?.select(); setCopied('no') }
          if (!navigator.clipboard) { fallback(); return }
          navigator.clipboard.writeText(value).then(() => setCopied('yes'), fallback)
        }}>{t('session.copy')}</button>
      </div>
      <p role="status" className="muted small">{copied === 'yes' ? t('common.copied') : copied === 'no' ? t('common.copyYourself') : ''}</p>
    </>
  )
}
