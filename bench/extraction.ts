// Extraction benchmark (no server): the extractive engine over a one-hour transcript built from the
// labelled meetings in test/fixtures/meetings, repeated with fresh segment ids until it spans an
// hour and holds at least 1,000 segments. Reports the median of several full runs; goal ≤ 1 s.
// `node bench/extraction.ts` runs it alone; bench/run.ts calls benchExtraction().
import { loadMeetingFixtures } from '../test/fixtures/meetings.ts'
import { extractItems } from '../src/modules/extraction/engine/extractive.ts'
import type { ExtractionInput, MeetingParticipant, TranscriptSegmentInput } from '../src/modules/extraction/engine/types.ts'

const HOUR_MS = 3_600_000
const MIN_SEGMENTS = 1_000

export function oneHourTranscript(): ExtractionInput {
  const fixtures = loadMeetingFixtures()
  const segments: TranscriptSegmentInput[] = []
  const participants: MeetingParticipant[] = []
  let offset = 0
  const isLongEnough = () => offset >= HOUR_MS && segments.length >= MIN_SEGMENTS
  for (let round = 0; !isLongEnough(); round += 1) {
    for (const fixture of fixtures) {
      if (isLongEnough()) break
      // The same people meet again in later rounds: speakers keep their ids, segments get new ones.
      if (round === 0) for (const participant of fixture.participants ?? []) participants.push({ ...participant, speakerId: `${fixture.id}-${participant.speakerId}` })
      for (const segment of fixture.segments) {
        segments.push({ ...segment, id: `r${round}-${fixture.id}-${segment.id}`, ...(segment.speakerId ? { speakerId: `${fixture.id}-${segment.speakerId}` } : {}), startMs: offset + segment.startMs, endMs: offset + segment.endMs })
      }
      offset += (fixture.segments.at(-1)?.endMs ?? 0) + 1_000
    }
  }
  return { segments, participants, meetingStartedAt: fixtures[0]!.meetingStartedAt, timezone: 'UTC' }
}

export type ExtractionBench = { segments: number; items: number; medianMs: number; runs: number[] }

export function benchExtraction(runs = 7): ExtractionBench {
  const input = oneHourTranscript()
  extractItems(input) // warm up: regex compilation, chrono's parsers
  const timings: number[] = []
  let items = 0
  for (let run = 0; run < runs; run += 1) {
    const started = performance.now()
    items = extractItems(input).items.length
    timings.push(performance.now() - started)
  }
  const sorted = [...timings].sort((a, b) => a - b)
  return { segments: input.segments.length, items, medianMs: sorted[Math.floor(sorted.length / 2)]!, runs: timings }
}

export function formatExtractionBench(result: ExtractionBench): string {
  return `extractive engine, one-hour transcript (${result.segments} segments → ${result.items} items): median ${result.medianMs.toFixed(0)} ms of ${result.runs.length} runs (goal ≤ 1000 ms)`
}

if (import.meta.main) console.log(formatExtractionBench(benchExtraction()))
