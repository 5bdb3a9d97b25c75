// `npm run eval -- --spoken-replay=<dir> [--meetings=a,b] [--verbose]`: the extractive engine
// re-read on transcripts a spoken evaluation saved (`SPOKEN_SAVE_DIR=<dir>`), scored as
// eval/spoken.ts scores them (a produced segment stands for the labelled segment it overlaps most).
// The input is what the server's refinement passes (segments with "Speaker N" labels and the
// recognizer's confidence, the workspace's members as participants), so an extraction change is
// measured on the same recognizer output in seconds, without transcribing again.
// `--decisions=rules`: decisions by the rules alone; `--decisions-loso [--decision-threshold=<x>]`: by the rules and a learned
// detector trained on every seen split but the meeting's own (eval/decisions.ts); `--kinds-loso
// [--kinds=outcome,question] [--threshold=<x>]`: also outcomes and questions by the rules and a learned
// detector trained on every seen split but the meeting's own (eval/kinds.ts; with `--decisions-loso`).
// `--oracle-speakers`: each segment keeps the recognizer's words but takes the labelled speaker of the
// turn it overlaps most (measures what speaker attribution costs; 2026-11-26: nothing, 0.733 → 0.731).
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { extractiveEngine } from '../src/modules/extraction/engine/index.ts'
import { extractItems, type ExtractOptions } from '../src/modules/extraction/engine/extractive.ts'
import type { DecisionModel } from '../src/modules/extraction/engine/decision-model.ts'
import { seenFixtures, trainingConfig, trainOn, vetoOf } from './decisions.ts'
import { kindsOf, trainKindOn } from './kinds.ts'
import { OTHER_LEARNED_KINDS } from '../src/modules/extraction/engine/kind-models.ts'
import { buildPeople } from '../src/modules/extraction/engine/owners.ts'
import { inferSpeakerNames } from '../src/modules/extraction/engine/speaker-names.ts'
import { turnIndexes } from '../src/modules/extraction/engine/turns.ts'
import { scoreMeeting, summarize } from '../src/modules/extraction/engine/evaluation.ts'
import { DEFAULT_QUALITY_GATE, type ExtractedItem, type ExtractionInput } from '../src/modules/extraction/engine/types.ts'
import { loadMeetingFixtures } from '../test/fixtures/meetings.ts'
import { formatReport } from './extraction.ts'

type Saved = {
  segments: { id: string; text: string; startMs: number; endMs: number; speakerId?: string; confidence?: number }[]
  spans: { id: string; speakerId?: string; startMs: number; endMs: number }[]
}

const overlapOf = (a: { startMs: number; endMs: number }, b: { startMs: number; endMs: number }) => Math.max(0, Math.min(a.endMs, b.endMs) - Math.max(a.startMs, b.startMs))

export async function runSpokenReplay(argv: string[]): Promise<void> {
  const dir = argv.find((argument) => argument.startsWith('--spoken-replay='))!.slice('--spoken-replay='.length)
  const picked = argv.find((argument) => argument.startsWith('--meetings='))?.slice('--meetings='.length).split(',')
  const scores = []
  const bySplit = new Map<string, ReturnType<typeof scoreMeeting>[]>()
  const mappings = { right: 0, wrong: 0 }
  let wrongOwners = 0
  const models = new Map<string, DecisionModel>()
  const decisionsFor = (split: string): ExtractOptions['decisions'] | undefined => {
    if (argv.includes('--decisions=rules')) return 'rules'
    if (!argv.includes('--decisions-loso')) return undefined
    if (!models.has(split)) models.set(split, trainOn(seenFixtures(), trainingConfig(argv), [split]))
    // `--decision-threshold=<x>`: the LOSO detectors at another threshold than the shipped one.
    const decisionThreshold = argv.find((argument) => argument.startsWith('--decision-threshold='))?.slice('--decision-threshold='.length)
    const model = models.get(split)!
    return { model: decisionThreshold ? { ...model, threshold: Number(decisionThreshold) } : model, mode: 'both', ...vetoOf(argv) }
  }
  const kindModels = new Map<string, ExtractOptions['kinds']>()
  const threshold = argv.find((argument) => argument.startsWith('--threshold='))?.slice('--threshold='.length)
  const kindsFor = (split: string): ExtractOptions['kinds'] => {
    // `--kinds=rules`: outcomes and questions by the rules alone (else, without `--kinds-loso`, the shipped engine's).
    if (argv.includes('--kinds=rules')) return { outcome: 'rules', question: 'rules' }
    if (!argv.includes('--kinds-loso')) return {}
    if (!kindModels.has(split)) {
      const named = kindsOf(argv)
      kindModels.set(split, Object.fromEntries(OTHER_LEARNED_KINDS.map((kind) => {
        if (!named.includes(kind)) return [kind, 'rules' as const]
        const model = trainKindOn(kind, seenFixtures(), trainingConfig(argv), [split])
        return [kind, { model: threshold ? { ...model, threshold: Number(threshold) } : model, mode: 'both' as const }]
      })))
    }
    return kindModels.get(split)!
  }
  for (const fixture of loadMeetingFixtures()) {
    const file = path.join(dir, `${fixture.id}.json`)
    if (!existsSync(file) || (picked && !picked.includes(fixture.id))) continue
    const { segments, spans } = JSON.parse(readFileSync(file, 'utf8')) as Saved
    // `--oracle-speakers` (measuring only): each segment takes the labelled speaker of the span it overlaps most.
    if (argv.includes('--oracle-speakers')) {
      for (const segment of segments) {
        const [best] = [...spans].sort((a, b) => overlapOf(segment, b) - overlapOf(segment, a))
        const voice = best && (best.speakerId ?? fixture.segments.find((each) => each.id === best.id)?.speakerId)
        const voices = [...new Set(fixture.segments.map((each) => each.speakerId))]
        if (voice) segment.speakerId = `spk_${voices.indexOf(voice) + 1}`
      }
    }
    const input: ExtractionInput = {
      segments: segments.map((segment) => ({
        id: segment.id, text: segment.text, startMs: segment.startMs, endMs: segment.endMs, language: 'en',
        ...(segment.speakerId ? { speakerId: segment.speakerId, speakerLabel: `Speaker ${segment.speakerId.replace(/^spk_/, '')}` } : {}),
        ...(typeof segment.confidence === 'number' ? { confidence: segment.confidence } : {}),
      })),
      participants: (fixture.participants ?? []).map((participant) => ({ name: participant.name, accountId: participant.name })),
      // the labels count due dates from the fixture's day, as the text evaluation does
      meetingStartedAt: fixture.meetingStartedAt,
      timezone: fixture.timezone,
    }
    const decisions = decisionsFor(fixture.split)
    const kinds = kindsFor(fixture.split)
    const result = decisions || argv.includes('--kinds-loso') || argv.includes('--kinds=rules') ? extractItems(input, { ...(decisions ? { decisions } : {}), kinds }) : await extractiveEngine.extract(input)
    const labelOf = new Map(segments.map((segment) => {
      let best: string | undefined
      let bestOverlap = 0
      for (const span of spans) {
        const overlap = overlapOf(segment, span)
        if (overlap > bestOverlap) {
          best = span.id
          bestOverlap = overlap
        }
      }
      return [segment.id, best] as const
    }))
    const items = result.items.filter((item) => item.confidence >= DEFAULT_QUALITY_GATE).map((item): ExtractedItem => ({
      ...item, sourceSegmentIds: [...new Set(item.sourceSegmentIds.map((id) => labelOf.get(id)).filter((id): id is string => id !== undefined))],
    }))
    const score = scoreMeeting(fixture.expected, items, DEFAULT_QUALITY_GATE)
    scores.push(score)
    bySplit.set(fixture.split, [...(bySplit.get(fixture.split) ?? []), score])
    // A named owner other than the label's ("Speaker N" is no name): worse than none.
    wrongOwners += score.matches.filter(({ expected, produced }) => expected.kind === 'action' && produced.ownerName
      && !/^Speaker \d+$/.test(produced.ownerName) && produced.ownerName !== (expected.ownerName ?? undefined)).length
    // Speakers named from how others address them, against who mostly spoke in each voice (the spans say).
    const sorted = [...input.segments].sort((a, b) => a.startMs - b.startMs || a.endMs - b.endMs)
    const inferred = inferSpeakerNames(sorted, input.participants, buildPeople(input), turnIndexes(sorted))
    const truth = (speakerId: string) => {
      const time = new Map<string, number>()
      for (const segment of segments.filter((each) => each.speakerId === speakerId)) {
        for (const span of spans) {
          // a span is a labelled segment: its voice is the fixture's speaker of that segment
          const voice = span.speakerId ?? fixture.segments.find((each) => each.id === span.id)?.speakerId
          if (voice) time.set(voice, (time.get(voice) ?? 0) + overlapOf(segment, span))
        }
      }
      const [top] = [...time].sort((a, b) => b[1] - a[1])
      return fixture.participants?.find((participant) => participant.speakerId === top?.[0])?.name
    }
    const mapped = [...inferred].map(([speakerId, participant]) => {
      const right = truth(speakerId) === participant.name
      mappings[right ? 'right' : 'wrong'] += 1
      return `${speakerId}→${participant.name} (${right ? 'right' : `wrong: ${truth(speakerId) ?? '?'}`})`
    })
    console.log(`  ${fixture.id.padEnd(30)} F1 ${(summarize([score]).overall.f1 * 100).toFixed(0)} %`)
    if (argv.includes('--verbose')) {
      console.log(`    speakers ${mapped.length > 0 ? mapped.join(', ') : 'none named'}`)
      for (const label of score.missed) console.log(`    missed   ${label.kind.padEnd(9)} [${label.sourceSegmentIds.join(',')}] ${label.title}`)
      // why it is spurious: `dup` (a label it cites was matched by another item of its kind), `<kind>` (it cites a label of another kind), `-` (no label there)
      const why = (item: (typeof score.spurious)[number]) => {
        const cited = fixture.expected.filter((label) => label.sourceSegmentIds.some((id) => item.sourceSegmentIds.includes(id)))
        return cited.some((label) => label.kind === item.kind) ? 'dup' : cited[0]?.kind ?? '-'
      }
      // a `dup` also names the item that matched its label (`= [segments] title`)
      const partner = (item: (typeof score.spurious)[number]) => score.matches.find(({ expected }) => expected.kind === item.kind && expected.sourceSegmentIds.some((id) => item.sourceSegmentIds.includes(id)))?.produced
      for (const item of score.spurious) {
        const matched = why(item) === 'dup' ? partner(item) : undefined
        console.log(`    spurious ${item.kind.padEnd(9)} ${why(item).padEnd(9)} [${item.sourceSegmentIds.join(',')}] ${item.title}${matched ? `  = [${matched.sourceSegmentIds.join(',')}] ${matched.title}` : ''}`)
      }
      for (const { expected, produced } of score.matches) {
        if (expected.kind === 'action' && (expected.ownerName ?? undefined) !== produced.ownerName) console.log(`    owner    [${produced.sourceSegmentIds.join(',')}] ${produced.title}: ${produced.ownerName ?? '-'} ≠ ${expected.ownerName ?? '-'}`)
      }
    }
  }
  for (const [split, splitScores] of bySplit) {
    const report = summarize(splitScores)
    console.log(`  ${split.padEnd(12)} ${(['action', 'decision', 'outcome', 'question', 'reference'] as const).map((kind) => `${kind} ${report.byKind[kind].f1.toFixed(3)}`).join('  ')}  overall ${report.overall.f1.toFixed(3)}`)
  }
  console.log('\n' + formatReport(summarize(scores), `Extraction re-read on the transcripts saved in ${dir}: ${scores.length} meetings`))
  console.log(`wrong named owners of matched actions: ${wrongOwners}   speakers named from how they are addressed: ${mappings.right} right, ${mappings.wrong} wrong`)
}
