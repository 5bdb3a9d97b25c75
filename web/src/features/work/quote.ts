// A work object's summary quoting its meeting, a line per turn ("Speaker 1: Can you send…",
// "Speaker 2: Sure"), names each speaker as they were called when the work was found. Beside a
// transcript that names them now ("Dana Li"), each quoted line takes the current name of the
// speaker of the cited segment whose words it quotes; a line that quotes none of them (any other
// "X: …" text) is left as it is.
import { speakerName } from '../../lib/i18n.ts'

/** The current label and words of a segment of the meeting, when the page has them. */
export type SegmentSpeaker = (segmentId: string) => { speaker?: string; text: string } | undefined

const QUOTE = /^([^:\n]{1,120}): (.+)$/

export function quotedSummary(summary: string, sourceSegmentIds: readonly string[], segmentOf?: SegmentSpeaker): string {
  if (!segmentOf || sourceSegmentIds.length === 0) return summary
  const cited = sourceSegmentIds.map(segmentOf).filter((segment) => segment?.speaker && segment.text.trim())
  if (cited.length === 0) return summary
  return summary.split('\n').map((line) => {
    const quoted = QUOTE.exec(line)
    if (!quoted) return line
    const words = quoted[2]!.trim().toLowerCase().slice(0, 40)
    const segment = cited.find((candidate) => candidate!.text.toLowerCase().includes(words))
    return segment ? `${speakerName(segment.speaker!)}: ${quoted[2]}` : line
  }).join('\n')
}
