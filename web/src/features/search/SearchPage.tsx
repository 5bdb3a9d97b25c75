// Session search: titles and transcripts (GET /v1/search/sessions?q=…), the query kept in the URL;
// a transcript match links to the words found.
import { useEffect, useState } from 'react'
import { navigate, useLocation } from '../../app/router.ts'
import { useAction } from '../../lib/api.ts'
import { useI18n } from '../../lib/i18n.ts'
import type { SessionSearchResult } from '../../lib/types.ts'
import { ErrorLine, Link, Loading, PageTitle } from '../../lib/ui.tsx'
import { searchSessions } from '../sessions/api.ts'

export function SearchPage() {
  const { t, dateTime } = useI18n()
  const { query } = useLocation()
  const q = query.get('q') ?? ''
  const [text, setText] = useState(q)
  const [result, setResult] = useState<SessionSearchResult>()
  const { busy, error, run } = useAction()
  useEffect(() => { if (q) void run(async () => setResult(await searchSessions(q))) }, [q, run])
  return (
    <section>
      <PageTitle title={t('search.title')}>{t('search.title')}</PageTitle>
      <form role="search" className="row" onSubmit={(event) => { event.preventDefault(); if (text.trim()) navigate(`/search?q=${encodeURIComponent(text.trim())}`) }}>
        <label htmlFor="search-q">{t('search.query')}</label>
        <input id="search-q" type="search" value={text} maxLength={200} onChange={(event) => setText(event.target.value)} />
        <button type="submit" className="primary">{t('search.go')}</button>
      </form>
      <ErrorLine error={error} />
      {busy ? <Loading /> : result ? (
        result.sessions.length === 0 ? (
          // Every word must be in one passage or in the title: a meeting with "launch" in one passage and
          // "report" in another is not found by "launch report", which nothing said.
          <p className="muted" data-testid="search-none">{t(result.query.trim().split(/\s+/).length > 1 ? 'search.noneSeveral' : 'search.none')}</p>
        ) : (
          <ul className="list">
            {result.sessions.map((session) => (
              <li key={session.id}>
                <Link href={`/sessions/${session.id}`}>{session.title}</Link>
                <span className="muted"> · {dateTime(session.startedAt)}</span>
                {/* A match in the transcript opens the meeting at the words found. */}
                <p className="snippet">{session.search.segmentId
                  ? <Link href={`/sessions/${session.id}?segment=${encodeURIComponent(session.search.segmentId)}`}>{snippet(session.search.snippet)}</Link>
                  : snippet(session.search.snippet)}</p>
              </li>
            ))}
          </ul>
        )
      ) : null}
    </section>
  )
}

/**
 * The server's snippet is HTML-escaped text with <mark> around terms: rebuilt as elements, never as HTML.
 * It escapes with numeric references (`&#38;` for &, platform/db/text-search.ts), which were shown as typed
 * ("Q&#38;A"); named ones are read too.
 */
function snippet(html: string) {
  const named: Record<string, string> = { lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' }
  const unescape = (text: string) => text.replace(/&(?:#(\d+)|#x([0-9a-f]+)|(lt|gt|quot|apos|amp));/gi,
    (whole, decimal: string | undefined, hex: string | undefined, name: string | undefined) =>
      decimal ? String.fromCodePoint(Number(decimal)) : hex ? String.fromCodePoint(parseInt(hex, 16)) : named[name!.toLowerCase()] ?? whole)
  return html.split(/(<mark>.*?<\/mark>)/g).map((part, index) =>
    part.startsWith('<mark>') ? <mark key={index}>{unescape(part.slice(6, -7))}</mark> : <span key={index}>{unescape(part)}</span>)
}
