// A transcript: speaker, time and text per segment, searchable. A long one is virtualized: only
// the rows near the list's own scroll position are in the page (@tanstack/react-virtual, rows
// measured as they render), so a 1,000-segment meeting renders as fast as a short one.
import { memo, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react'
import { useVirtualizer } from '@tanstack/react-virtual'
import { speakerName, useI18n } from '../../lib/i18n.ts'
import { formatMs } from '../../lib/ui.tsx'
import type { LiveSegment } from './LiveTranscript.tsx'

/** Above this many rows only the visible ones are rendered. */
export const VIRTUAL_FROM = 150

type ListProps = { segments: LiveSegment[]; speakers: Record<string, string>; query: string; live?: boolean; focusId?: string }

export function TranscriptList({ segments, speakers, live, searchable, focusId }: {
  segments: LiveSegment[]; speakers: Record<string, string>; live?: boolean; searchable?: boolean; focusId?: string
}) {
  const { t } = useI18n()
  const [query, setQuery] = useState('')
  const deferred = useDeferredValue(query.trim().toLowerCase())
  const shown = useMemo(() => (deferred ? segments.filter((segment) => segment.text.toLowerCase().includes(deferred)) : segments), [segments, deferred])
  const props: ListProps = { segments: shown, speakers, query: deferred, live, focusId }
  return (
    <div>
      {searchable ? (
        <div className="search-row">
          <label htmlFor="transcript-search">{t('session.searchTranscript')}</label>
          <input id="transcript-search" type="search" value={query} onChange={(event) => setQuery(event.target.value)} />
          {deferred ? <p role="status" className="muted">{(shown.length === 1 ? t('session.matchOne') : t('session.matches', { count: shown.length }))}</p> : null}
        </div>
      ) : null}
      {shown.length > VIRTUAL_FROM ? <VirtualRows {...props} /> : <AllRows {...props} />}
    </div>
  )
}

function AllRows({ segments, speakers, query, live, focusId }: ListProps) {
  const present = Boolean(focusId && segments.some((segment) => segment.id === focusId))
  useEffect(() => {
    if (present) document.getElementById(`segment-${focusId}`)?.scrollIntoView({ block: 'center' })
  }, [focusId, present])
  return (
    <ol className="transcript" aria-live={live ? 'polite' : undefined} data-testid="transcript">
      {segments.map((segment) => <Row key={segment.id} segment={segment} speaker={speakerOf(segment, speakers)} query={query} focused={segment.id === focusId} />)}
    </ol>
  )
}

function VirtualRows({ segments, speakers, query, live, focusId }: ListProps) {
  const { t } = useI18n()
  const scroller = useRef<HTMLDivElement>(null)
  const virtualizer = useVirtualizer({
    count: segments.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 36,
    overscan: 10,
    getItemKey: (index) => segments[index]!.id,
  })
  const focusIndex = focusId ? segments.findIndex((segment) => segment.id === focusId) : -1
  useEffect(() => {
    if (focusIndex >= 0) virtualizer.scrollToIndex(focusIndex, { align: 'center' })
  }, [focusIndex, virtualizer])
  const items = virtualizer.getVirtualItems()
  const before = items[0]?.start ?? 0
  const after = virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0)
  // The scroll container holds the list; the list's padding stands for the rows not rendered.
  // Rows enter the page as it scrolls, so the list itself is not a live region: while the meeting
  // is live, a hidden one announces the newest segment.
  const newest = live ? segments.at(-1) : undefined
  return (
    <div ref={scroller} className="transcript-scroll" tabIndex={0} role="region" aria-label={t('session.transcriptLines')}>
      {live ? <p className="visually-hidden" aria-live="polite">{newest?.status === 'final' ? newest.text : ''}</p> : null}
      <ol className="transcript virtual" data-testid="transcript"
        style={{ paddingTop: before, paddingBottom: Math.max(0, after) }}>
        {items.map((item) => {
          const segment = segments[item.index]!
          return (
            <Row key={item.key} segment={segment} speaker={speakerOf(segment, speakers)} query={query} focused={segment.id === focusId}
              index={item.index} count={segments.length} measure={virtualizer.measureElement} />
          )
        })}
      </ol>
    </div>
  )
}

const speakerOf = (segment: LiveSegment, speakers: Record<string, string>) => (segment.speakerId ? speakerName(speakers[segment.speakerId] ?? segment.speakerId) : '')

const Row = memo(function Row({ segment, speaker, query, focused, index, count, measure }: {
  segment: LiveSegment; speaker: string; query: string; focused: boolean; index?: number; count?: number; measure?: (element: Element | null) => void
}) {
  const classes = [segment.status === 'partial' ? 'partial' : '', focused ? 'highlighted' : ''].filter(Boolean).join(' ')
  return (
    <li id={`segment-${segment.id}`} className={classes || undefined} data-status={segment.status} ref={measure}
      data-index={index} aria-posinset={index === undefined ? undefined : index + 1} aria-setsize={count}>
      <span className="speaker">{speaker}</span>
      <time className="time">{formatMs(segment.startMs)}</time>
      <span className="text">{highlight(segment.text, query)}</span>
    </li>
  )
})

function highlight(text: string, query: string) {
  if (!query) return text
  const index = text.toLowerCase().indexOf(query)
  if (index < 0) return text
  return <>{text.slice(0, index)}<mark>{text.slice(index, index + query.length)}</mark>{text.slice(index + query.length)}</>
}
