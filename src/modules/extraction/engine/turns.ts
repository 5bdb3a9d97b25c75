// Turns: a recognizer writes one segment per sentence, a typed or verbatim transcript one per turn.
// The assembler's windows ("the request just made", "a yes from the next speaker") count turns, so
// consecutive recognized segments (they carry the recognizer's confidence) of one speaker with only
// a short pause between them are read as one turn. Typed segments are turns as they are.
import type { TranscriptSegmentInput } from './types.ts'

/** Longest pause (ms) between two segments of one speaker that still continues their turn. */
export const TURN_PAUSE_MS = 1500

/** The turn of each segment (segments sorted by time). Only looks back, so a prefix keeps its turns. */
export function turnIndexes(segments: TranscriptSegmentInput[]): number[] {
  const turns: number[] = []
  segments.forEach((segment, index) => {
    const previous = segments[index - 1]
    const continues = previous !== undefined && segment.speakerId !== undefined && previous.speakerId === segment.speakerId
      && typeof segment.confidence === 'number' && typeof previous.confidence === 'number'
      && segment.startMs - previous.endMs <= TURN_PAUSE_MS
    turns.push(index === 0 ? 0 : continues ? turns[index - 1]! : turns[index - 1]! + 1)
  })
  return turns
}
