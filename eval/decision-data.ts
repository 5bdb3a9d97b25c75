// The training data of the learned decision detector (eval/decisions.ts): the seen labelled splits,
// the extra training meetings of test/fixtures/training-meetings (never scored, never in the
// extraction or answers evaluations), and recognizer-like copies of them: each English meeting as
// `asRecognized` writes it, and the saved recognizer output of seen spoken runs (`SPOKEN_SAVE_DIR`),
// each produced segment standing for the labelled segment it overlaps most, as eval/spoken.ts scores.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { loadMeetingFixtures, type MeetingFixture } from '../test/fixtures/meetings.ts'
import { decisionUnits, unitFeatures, wordsOf, type TrainingExample } from '../src/modules/extraction/engine/decision-model.ts'
import type { LearnedKind } from '../src/modules/extraction/engine/learned-kinds.ts'
import { asRecognized } from '../src/modules/extraction/engine/testing.ts'
import { joinCutSentences, turnIndexes } from '../src/modules/extraction/engine/turns.ts'
import type { TranscriptSegmentInput } from '../src/modules/extraction/engine/types.ts'

/** The splits a model may learn from; a split sealed later (held-out-25 on) is never read until its one run. */
export const SEEN_SPLITS = ['development', 'held-out', 'held-out-2', 'held-out-3', 'held-out-4', 'held-out-5', 'held-out-6', 'held-out-7', 'held-out-8', 'held-out-9', 'held-out-10', 'held-out-11', 'held-out-12', 'held-out-13', 'held-out-14', 'held-out-15', 'held-out-16', 'held-out-17', 'held-out-18', 'held-out-19', 'held-out-20', 'held-out-21', 'held-out-22', 'held-out-23', 'held-out-24'] as const

export const trainingMeetingsDirectory = path.join(import.meta.dirname, '../test/fixtures/training-meetings')
/** Recognizer output of the seen spoken splits, kept for training (`--keep-spoken-transcripts=<dir>`). */
export const spokenTranscriptsDirectory = path.join(import.meta.dirname, 'spoken-transcripts')
/** The same, heard by the default engine (Moonshine) rather than pocketsphinx. */
export const moonshineTranscriptsDirectory = path.join(import.meta.dirname, 'spoken-transcripts-moonshine')

export function seenFixtures(): MeetingFixture[] {
  return loadMeetingFixtures().filter((fixture) => (SEEN_SPLITS as readonly string[]).includes(fixture.split))
}

/**
 * The extra labelled meetings written only to train the detectors (split "training"), of the given
 * batches (the letter their ids start with: a-…, b-…).
 */
export function trainingFixtures(batches: readonly string[]): MeetingFixture[] {
  if (!existsSync(trainingMeetingsDirectory) || batches.length === 0) return []
  return loadMeetingFixtures(trainingMeetingsDirectory)
    .filter((fixture) => (fixture.split as string) === 'training' && batches.includes(fixture.id.split('-')[0]!))
}

/** What the detector learns from besides the seen splits' typed text. */
export type TrainingConfig = {
  /** the batches of extra training meetings read (none: the seen splits alone) */
  extra: readonly string[]
  /** each English meeting a second time as `asRecognized` writes it */
  recognized: boolean
  /** folders of saved spoken runs (one JSON per meeting); a held split's own speech is never read */
  spoken: string[]
  /** features said in fewer meetings than this are left out */
  minGroups: number
  l2: number
}

/**
 * Each sentence of a transcript as an example for a detector of `kind`. Positive: among the sentences
 * standing for a labelled segment an item of that kind cites, the one sharing most words with the label's title; the others are left
 * out (an agreeing "yeah" is not itself the decision); every other sentence is negative.
 */
export function examplesOf(segments: TranscriptSegmentInput[], labelOf: (id: string) => string | undefined, fixture: MeetingFixture, kind: LearnedKind = 'decision'): TrainingExample[] {
  const sorted = joinCutSentences([...segments].sort((a, b) => a.startMs - b.startMs || a.endMs - b.endMs))
  const units = decisionUnits(sorted, turnIndexes(sorted))
  const labelled = new Map<string, string[]>()
  for (const item of fixture.expected) {
    if (item.kind !== kind) continue
    for (const id of item.sourceSegmentIds) labelled.set(id, [...(labelled.get(id) ?? []), ...wordsOf(item.title)])
  }
  const best = new Map<string, { index: number; overlap: number }>()
  units.forEach((unit, index) => {
    const label = labelOf(unit.segmentId)
    const title = label === undefined ? undefined : labelled.get(label)
    if (!title) return
    const overlap = new Set(wordsOf(unit.text).filter((word) => word.length > 2 && title.includes(word))).size
    if (overlap > (best.get(label!)?.overlap ?? 0)) best.set(label!, { index, overlap })
  })
  return units.flatMap((unit, index) => {
    const label = labelOf(unit.segmentId)
    const positive = label !== undefined && best.get(label)?.index === index
    if (label !== undefined && labelled.has(label) && !positive) return []
    return [{ features: unitFeatures(unit, true), positive, group: fixture.id }, { features: unitFeatures(unit, false), positive, group: fixture.id }]
  })
}

export function decisionExamples(fixture: MeetingFixture, kind: LearnedKind = 'decision'): TrainingExample[] {
  return examplesOf(fixture.segments, (id) => id, fixture, kind)
}

const overlapOf = (a: { startMs: number; endMs: number }, b: { startMs: number; endMs: number }) => Math.max(0, Math.min(a.endMs, b.endMs) - Math.max(a.startMs, b.startMs))

type Saved = { segments: { id: string; text: string; startMs: number; endMs: number; speakerId?: string; confidence?: number }[]; spans: { id: string; startMs: number; endMs: number }[] }

/** The saved recognizer output of a meeting, as eval/spoken-replay.ts gives it to the engine. */
function spokenExamples(file: string, fixture: MeetingFixture, kind: LearnedKind): TrainingExample[] {
  const saved = JSON.parse(readFileSync(file, 'utf8')) as Saved
  const labels = new Map(saved.segments.map((segment) => {
    let best: string | undefined
    let bestOverlap = 0
    for (const span of saved.spans) {
      const overlap = overlapOf(segment, span)
      if (overlap > bestOverlap) [best, bestOverlap] = [span.id, overlap]
    }
    return [segment.id, best] as const
  }))
  const segments = saved.segments.map((segment) => ({
    id: segment.id, text: segment.text, startMs: segment.startMs, endMs: segment.endMs, language: 'en',
    ...(segment.speakerId ? { speakerId: segment.speakerId, speakerLabel: `Speaker ${segment.speakerId.replace(/^spk_/, '')}` } : {}),
    ...(typeof segment.confidence === 'number' ? { confidence: segment.confidence } : {}),
  }))
  return examplesOf(segments, (id) => labels.get(id), fixture, kind)
}

/** The examples of `fixtures` (never a split named in `held`) and, per the config, their recognizer-like copies. */
export function trainingExamples(fixtures: MeetingFixture[], config: TrainingConfig, held: string[] = [], kind: LearnedKind = 'decision'): TrainingExample[] {
  const pool = [...fixtures, ...trainingFixtures(config.extra)].filter((fixture) => !held.includes(fixture.split))
  const examples = pool.flatMap((fixture) => decisionExamples(fixture, kind))
  if (config.recognized) {
    for (const fixture of pool.filter((each) => each.language.startsWith('en'))) {
      const input = { segments: fixture.segments, meetingStartedAt: fixture.meetingStartedAt, timezone: fixture.timezone }
      examples.push(...examplesOf(asRecognized(input).segments, (id) => id.replace(/\.\d+$/, ''), fixture, kind))
    }
  }
  const byId = new Map(pool.map((fixture) => [fixture.id, fixture]))
  for (const dir of config.spoken) {
    if (!existsSync(dir)) continue
    for (const file of readdirSync(dir).filter((name) => name.endsWith('.json')).sort()) {
      const fixture = byId.get(file.replace(/\.json$/, ''))
      if (fixture) examples.push(...spokenExamples(path.join(dir, file), fixture, kind))
    }
  }
  return examples
}

/**
 * Copies a spoken run's saved transcripts (`SPOKEN_SAVE_DIR`) of seen meetings into `into`
 * (eval/spoken-transcripts or …-moonshine), keeping only what training and the replay read (segment text, times, speaker and confidence; spans).
 */
export function keepSpokenTranscripts(from: string, into = spokenTranscriptsDirectory): void {
  const seen = new Set(seenFixtures().map((fixture) => fixture.id))
  mkdirSync(into, { recursive: true })
  for (const file of readdirSync(from).filter((name) => name.endsWith('.json') && seen.has(name.replace(/\.json$/, '')))) {
    const saved = JSON.parse(readFileSync(path.join(from, file), 'utf8')) as Saved
    // The recognizer's confidence too: the engine reads confident same-voice sentences as one turn (engine/turns.ts).
    const segments = saved.segments.map(({ id, text, startMs, endMs, speakerId, confidence }) => ({ id, text, startMs, endMs, ...(speakerId ? { speakerId } : {}), ...(typeof confidence === 'number' ? { confidence } : {}) }))
    const spans = saved.spans.map(({ id, startMs, endMs }) => ({ id, startMs, endMs }))
    writeFileSync(path.join(into, file), `${JSON.stringify({ segments, spans })}\n`)
    console.log(`kept ${file}: ${segments.length} segments`)
  }
}
