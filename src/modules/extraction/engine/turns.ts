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

/** A recognized sentence ending on a preposition ("Fine by.", "Works for."). */
const DANGLING = /\b(?:by|for|with|to)[.!]?$/i
/** Its last word or two, given to the next voice ("Me.", "For me."). */
const TAIL = /^(?:(?:by|for|with|to) )?(?:me|us|you|them|it|that)[.!]?$/i

/**
 * A sentence cut across two voices by diarization ("Fine by." / "Me."): the tail joins the sentence it
 * ends, so the yes reads as a yes and "Me." is not a claim. Recognized segments only (typed ones carry
 * no confidence).
 */
export function joinCutSentences(segments: TranscriptSegmentInput[]): TranscriptSegmentInput[] {
  const joined: TranscriptSegmentInput[] = []
  for (const segment of segments) {
    const previous = joined[joined.length - 1]
    if (previous && typeof segment.confidence === 'number' && typeof previous.confidence === 'number'
      && DANGLING.test(previous.text.trim()) && TAIL.test(segment.text.trim()) && segment.startMs - previous.endMs <= TURN_PAUSE_MS) {
      joined[joined.length - 1] = { ...previous, text: `${previous.text.trim().replace(/[.!]$/, '')} ${segment.text.trim().toLowerCase()}`, endMs: segment.endMs }
    } else joined.push(segment)
  }
  return joined
}
