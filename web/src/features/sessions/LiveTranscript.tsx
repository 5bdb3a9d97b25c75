// The transcript as it arrives: transcript.partial / transcript.final events of the conversation
// (replayed from the start, then live; a reconnect continues after the last seq seen).
import { useEffect, useState } from 'react'
import { useI18n } from '../../lib/i18n.ts'
import { openStream } from '../../lib/realtime.ts'
import type { TranscriptSegment } from '../../lib/types.ts'
import { TranscriptList } from './TranscriptList.tsx'

export type LiveSegment = Pick<TranscriptSegment, 'id' | 'startMs' | 'endMs' | 'text' | 'status' | 'speakerId'>

export function mergeSegment(list: LiveSegment[], segment: LiveSegment): LiveSegment[] {
  const without = list.filter((item) => item.id !== segment.id)
  if (!segment.text && segment.status === 'final') return without
  return [...without, segment].sort((a, b) => a.startMs - b.startMs)
}

export function LiveTranscript({ conversationId, initial = [], speakers: initialSpeakers = {} }: {
  sessionId: string; conversationId: string; initial?: LiveSegment[]; speakers?: Record<string, string>
}) {
  const { t } = useI18n()
  const [segments, setSegments] = useState<LiveSegment[]>(initial)
  const [speakers, setSpeakers] = useState<Record<string, string>>(initialSpeakers)
  useEffect(() => openStream({
    path: `/v1/conversations/${conversationId}/events`,
    onEvent(event) {
      if (event.type === 'transcript.partial' || event.type === 'transcript.final') setSegments((list) => mergeSegment(list, event.data as LiveSegment))
      if (event.type === 'speaker.updated') setSpeakers((map) => ({ ...map, [event.data.speakerId]: event.data.label }))
    },
  }), [conversationId])
  if (segments.length === 0) return <p className="muted" role="status">{t('record.waiting')}</p>
  return <TranscriptList segments={segments} speakers={speakers} live />
}
