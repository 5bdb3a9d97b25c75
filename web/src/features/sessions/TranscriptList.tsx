// A transcript: speaker, time and text per segment, searchable. Rows are laid out and painted
// only near the viewport (content-visibility), so a 1,000-segment meeting stays quick.
import { useDeferredValue, useMemo, useState } from 'react'
import { useI18n } from '../../lib/i18n.ts'
import { formatMs } from '../../lib/ui.tsx'
import type { LiveSegment } from './LiveTranscript.tsx'

export function TranscriptList({ segments, speakers, live, searchable }: {
  segments: LiveSegment[]; speakers: Record<string, string>; live?: boolean; searchable?: boolean
}) {
  const { t } = useI18n()
  const [query, setQuery] = useState('')
  const deferred = useDeferredValue(query.trim().toLowerCase())
  const shown = useMemo(() => (deferred ? segments.filter((segment) => segment.text.toLowerCase().includes(deferred)) : segments), [segments, deferred])
  return (
    <div>
      {searchable ? (
        <div className="search-row">
          <label htmlFor="transcript-search">{t('session.searchTranscript')}</label>
          <input id="transcript-search" type="search" value={query} onChange={(event) => setQuery(event.target.value)} />
          {deferred ? <p role="status" className="muted">{t('session.matches', { count: shown.length })}</p> : null}
        </div>
      ) : null}
      <ol className="transcript" aria-live={live ? 'polite' : undefined} data-testid="transcript">
        {shown.map((segment) => (
          <li key={segment.id} id={`segment-${segment.id}`} className={segment.status === 'partial' ? 'partial' : undefined} data-status={segment.status}>
            <span className="speaker">{segment.speakerId ? speakers[segment.speakerId] ?? segment.speakerId : ''}</span>
            <time className="time">{formatMs(segment.startMs)}</time>
            <span className="text">{highlight(segment.text, deferred)}</span>
          </li>
        ))}
      </ol>
    </div>
  )
}

function highlight(text: string, query: string) {
  if (!query) return text
  const index = text.toLowerCase().indexOf(query)
  if (index < 0) return text
  return <>{text.slice(0, index)}<mark>{text.slice(index, index + query.length)}</mark>{text.slice(index + query.length)}</>
}
