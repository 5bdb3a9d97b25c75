// The transcript as it arrives: transcript.partial / transcript.final events of the conversation
// (replayed from the start, then live; a reconnect continues after the last seq seen).
import { useCallback, useEffect, useRef, useState } from 'react'
import { useI18n } from '../../lib/i18n.ts'
import { openStream } from '../../lib/realtime.ts'
import type { TranscriptSegment } from '../../lib/types.ts'
import { TranscriptList } from './TranscriptList.tsx'

export type LiveSegment = Pick<TranscriptSegment, 'id' | 'startMs' | 'endMs' | 'text' | 'status' | 'speakerId'>

/**
 * Segments by id, updated in batches: a replayed log of thousands of events (or a REST page of
 * hundreds) becomes one render every 50 ms, not one per event; the first batch renders at once.
 * A segment that arrives again unchanged (the replay of what a page already gave) renders
 * nothing. A final without words removes its partial.
 */
export function useSegments(): [LiveSegment[], (items: LiveSegment[]) => void] {
  const byId = useRef(new Map<string, LiveSegment>())
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  const dirty = useRef(false)
  const shown = useRef(false)
  const [segments, setSegments] = useState<LiveSegment[]>([])
  useEffect(() => () => clearTimeout(timer.current), [])
  const add = useCallback((items: LiveSegment[]) => {
    for (const item of items) {
      const known = byId.current.get(item.id)
      if (!item.text && item.status === 'final') dirty.current = byId.current.delete(item.id) || dirty.current
      else if (!known || !sameSegment(known, item)) { byId.current.set(item.id, item); dirty.current = true }
    }
    if (!dirty.current) return
    timer.current ??= setTimeout(() => {
      timer.current = undefined
      dirty.current = false
      shown.current = true
      setSegments([...byId.current.values()].sort((a, b) => a.startMs - b.startMs))
    }, shown.current ? 50 : 0)
  }, [])
  return [segments, add]
}

const sameSegment = (a: LiveSegment, b: LiveSegment) =>
  a.text === b.text && a.status === b.status && a.startMs === b.startMs && a.endMs === b.endMs && a.speakerId === b.speakerId

export function LiveTranscript({ conversationId }: { sessionId: string; conversationId: string }) {
  const { t } = useI18n()
  const [segments, addSegments] = useSegments()
  const [speakers, setSpeakers] = useState<Record<string, string>>({})
  useEffect(() => openStream({
    path: `/v1/conversations/${conversationId}/events`,
    onEvent(event) {
      if (event.type === 'transcript.partial' || event.type === 'transcript.final') {
        const segment = event.data as LiveSegment & { speakerLabel?: string }
        addSegments([segment])
        // A segment carries its speaker's current label (a name once identified).
        if (segment.speakerId && segment.speakerLabel) setSpeakers((map) => ({ ...map, [segment.speakerId!]: segment.speakerLabel! }))
      }
      if (event.type === 'speaker.updated') setSpeakers((map) => ({ ...map, [event.data.speakerId]: event.data.label }))
    },
  }), [conversationId, addSegments])
  if (segments.length === 0) return <p className="muted" role="status">{t('record.waiting')}</p>
  return <TranscriptList segments={segments} speakers={speakers} live />
}
