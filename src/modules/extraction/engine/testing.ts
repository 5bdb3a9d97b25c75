// Builds engine input from lines of dialogue, for tests: [speakerId, text] pairs become segments
// s1, s2, … four seconds apart.
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
