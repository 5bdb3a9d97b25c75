// Builds engine input from lines of dialogue, for tests: [speakerId, text] pairs become segments
// s1, s2, … four seconds apart.
import { splitSentences } from './text.ts'
import type { ExtractionInput, MeetingParticipant } from './types.ts'

export function meeting(lines: [speakerId: string, text: string][], options: { participants?: MeetingParticipant[]; meetingStartedAt?: string; timezone?: string; locale?: string } = {}): ExtractionInput {
  return {
    segments: lines.map(([speakerId, text], index) => ({ id: `s${index + 1}`, speakerId, text, startMs: index * 4000, endMs: index * 4000 + 3500 })),
    participants: options.participants ?? [],
    meetingStartedAt: options.meetingStartedAt ?? '2026-03-04T15:00:00.000Z', // a Wednesday
    ...(options.timezone ? { timezone: options.timezone } : { timezone: 'UTC' }),
    ...(options.locale ? { locale: options.locale } : {}),
  }
}

/**
 * A transcript as pocketsphinx and Confer's punctuation write it: one segment per sentence (id
 * `<segment>.<n>`), no commas, lower case but for the first letter, the recognizer's confidence on
 * each segment. The words stay right: it isolates the form of recognized speech from mishearing.
 */
export function asRecognized(input: ExtractionInput, confidence = 0.8): ExtractionInput {
  const segments = input.segments.flatMap((segment) => {
    const sentences = splitSentences(segment.text)
    const length = (segment.endMs - segment.startMs) / Math.max(1, sentences.length)
    return sentences.map((sentence, index) => {
      const words = sentence.toLowerCase().replace(/[,;:"“”—…]/g, '').replace(/\s+/g, ' ').trim()
      return {
        ...segment, id: `${segment.id}.${index}`, confidence,
        text: words.charAt(0).toUpperCase() + words.slice(1),
        startMs: Math.round(segment.startMs + index * length), endMs: Math.round(segment.startMs + (index + 1) * length - 100),
      }
    })
  })
  return { ...input, segments }
}
