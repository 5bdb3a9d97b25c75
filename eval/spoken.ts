// `npm run eval -- --spoken`: the labelled English meetings spoken by flite voices (one voice per
// speaker, 0.2–0.8 s between turns and a quarter of the turns with no pause at all), sent as 1 s
// PCM chunks through the real app (in process, SQLite, the default engine or SPOKEN_ENGINE: upload → transcription jobs →
// end → extraction), then scored: word error rate, speaker turns, precision/recall/F1 per kind.
// A produced segment stands for the labelled segment it overlaps most in time, so the labels'
// `sourceSegmentIds` apply unchanged. Splits: eval/spoken-split.json (sealed before the first run).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { summarize, scoreMeeting, type MeetingScore } from '../src/modules/extraction/engine/evaluation.ts'
import { DEFAULT_QUALITY_GATE, type ExtractedItem, type ItemKind } from '../src/modules/extraction/engine/types.ts'
import { joinWorkspace, startRecording, uploadChunk } from '../src/modules/sessions/testing.ts'
import { loadMeetingFixtures, type MeetingFixture } from '../test/fixtures/meetings.ts'
import { createHarness, type Harness, type Member } from '../test/harness.ts'
import { hasFfmpeg, hasFlite, hasPocketsphinx, speak, wordErrorRate, type Turn } from '../test/speech.ts'
import { formatReport } from './extraction.ts'

/** The spoken splits (each a list of meeting ids in eval/spoken-split.json). A run without `--split=` takes the
 * first two only: a sealed split (held-out-2 … held-out-24) runs only when named, so that it is run once, on purpose. */
export const spokenSplitNames = ['development', 'held-out', 'held-out-2', 'held-out-3', 'held-out-4', 'held-out-5', 'held-out-6', 'held-out-7', 'held-out-8', 'held-out-9', 'held-out-10', 'held-out-11', 'held-out-12', 'held-out-13', 'held-out-14', 'held-out-15', 'held-out-16', 'held-out-17', 'held-out-18', 'held-out-19', 'held-out-20', 'held-out-21', 'held-out-22', 'held-out-23', 'held-out-24'] as const
const defaultSplitNames: readonly SplitName[] = ['development', 'held-out']
type SplitName = (typeof spokenSplitNames)[number]
type Split = { voices: Turn['voice'][]; pausesMs: { min: number; max: number; noPauseShare: number; seed: number } } & Record<SplitName, string[]>
export const spokenSplit = JSON.parse(readFileSync(path.join(import.meta.dirname, 'spoken-split.json'), 'utf8')) as Split

/** Deterministic pseudo-random numbers (mulberry32). */
function random(seed: number) {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export type SpokenMeeting = { pcm: Buffer; spans: { id: string; speakerId: string; startMs: number; endMs: number }[] }

/** The meeting's segments spoken one after another; a speaker keeps one voice. */
export function speakMeeting(fixture: MeetingFixture, split: Split = spokenSplit): SpokenMeeting {
  const next = random(split.pausesMs.seed + [...fixture.id].reduce((sum, character) => sum + character.charCodeAt(0), 0))
  const voiceOf = new Map<string, Turn['voice']>()
  const parts: Buffer[] = []
  const spans: SpokenMeeting['spans'] = []
  let bytes = 0
  const silence = (ms: number) => {
    const gap = Buffer.alloc(Math.round(ms * 16) * 2)
    parts.push(gap)
    bytes += gap.length
  }
  silence(500)
  let previousSpeaker: string | undefined
  for (const segment of fixture.segments) {
    const speakerId = segment.speakerId ?? 'spk_1'
    if (!voiceOf.has(speakerId)) voiceOf.set(speakerId, split.voices[voiceOf.size % split.voices.length]!)
    if (spans.length > 0) {
      const draw = next()
      const pause = draw < split.pausesMs.noPauseShare ? 0 : split.pausesMs.min + next() * (split.pausesMs.max - split.pausesMs.min)
      // The same speaker going on gets at least a breath.
      silence(previousSpeaker === speakerId ? Math.max(pause, 250) : pause)
    }
    const audio = speak({ voice: voiceOf.get(speakerId)!, text: segment.text })
    spans.push({ id: segment.id, speakerId, startMs: Math.round(bytes / 32), endMs: Math.round((bytes + audio.length) / 32) })
    parts.push(audio)
    bytes += audio.length
    previousSpeaker = speakerId
  }
  silence(1000)
  return { pcm: Buffer.concat(parts), spans }
}

type ProducedSegment = { id: string; startMs: number; endMs: number; speakerId?: string; text: string; confidence?: number }
type WorkObject = { id: string; kind: ItemKind; title: string; sourceSegmentIds: string[]; confidence?: number; suggestedOwnerName?: string }

export type SpokenResult = {
  fixture: MeetingFixture
  score: MeetingScore
  wer: number
  audioSeconds: number
  seconds: number
  /** labelled speaker changes found as a produced boundary with another speaker id (±0.6 s) */
  turnChanges: { found: number; total: number }
  /** produced segments lying (≥ 90 % of their time) inside one labelled segment's speaker turn */
  pureSegments: { pure: number; total: number }
  segmentCount: number
  /** what the server wrote, for reading the development meetings (--transcripts) */
  segments: ProducedSegment[]
  /** mean recognizer confidence of the segments each produced item cites (by item key) */
  itemConfidence: Map<string, number>
}

const overlapOf = (a: { startMs: number; endMs: number }, b: { startMs: number; endMs: number }) => Math.max(0, Math.min(a.endMs, b.endMs) - Math.max(a.startMs, b.startMs))

/** A workspace whose members are the meeting's participants, as in real use (their names are its vocabulary). */
async function workspaceFor(h: Harness, fixture: MeetingFixture): Promise<Member> {
  const owner = await h.member()
  const [first, ...others] = fixture.participants ?? []
  if (first) await owner.patch('/v1/account/profile', { name: first.name })
  for (const participant of others) {
    const member = await joinWorkspace(h, owner.workspaceId, 'edit')
    await member.patch('/v1/account/profile', { name: participant.name })
  }
  return owner
}

async function runMeeting(h: Harness, fixture: MeetingFixture): Promise<SpokenResult> {
  const owner = await workspaceFor(h, fixture)
  const spoken = speakMeeting(fixture)
  const started = performance.now()
  const session = await startRecording(owner)
  const chunkBytes = 32_000
  for (let offset = 0, index = 0; offset < spoken.pcm.length; offset += chunkBytes, index += 1) {
    const response = await uploadChunk(owner, session.id, `c${index}`, spoken.pcm.subarray(offset, offset + chunkBytes))
    if (response.statusCode !== 200) throw new Error(`upload failed: ${response.statusCode} ${response.body}`)
  }
  // The whole recording is transcribed by the session's processing (100 chunks per run, as the
  // server does after the end): live partials would only transcribe the same audio twice here.
  const ended = await owner.post(`/v1/sessions/${session.id}/end`)
  if (ended.statusCode !== 200) throw new Error(`end failed: ${ended.body}`)
  // Several meetings run at once: wait for this one to be ready, whoever ran its jobs.
  for (;;) {
    await h.app.deps.jobs.drain()
    const state = (await owner.get(`/v1/sessions/${session.id}`)).json().state as string
    if (state === 'ready' || state === 'failed') break
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
  const seconds = (performance.now() - started) / 1000

  const segments: ProducedSegment[] = []
  let cursor: string | undefined
  do {
    const page = (await owner.get(`/v1/sessions/${session.id}/transcript?limit=200${cursor ? `&cursor=${cursor}` : ''}`)).json() as { segments: ProducedSegment[]; nextCursor?: string }
    segments.push(...page.segments)
    cursor = page.nextCursor
  } while (cursor)
  const labelOf = new Map(segments.map((segment) => {
    let best: string | undefined
    let bestOverlap = 0
    for (const span of spoken.spans) {
      const overlap = overlapOf(segment, span)
      if (overlap > bestOverlap) {
        best = span.id
        bestOverlap = overlap
      }
    }
    return [segment.id, best] as const
  }))

  const sets = (await owner.get(`/v1/conversations/${session.conversationId}/workset`)).json() as { workSets: { id: string }[] }
  const objects: WorkObject[] = []
  for (const set of sets.workSets ?? []) {
    const detail = (await owner.get(`/v1/worksets/${set.id}`)).json() as { workObjects: WorkObject[] }
    objects.push(...detail.workObjects)
  }
  const items = objects.map((object): ExtractedItem => ({
    key: object.id, kind: object.kind, family: 'work', semanticType: 'task', title: object.title, summary: '',
    confidence: object.confidence ?? 1, ...(object.suggestedOwnerName ? { ownerName: object.suggestedOwnerName } : {}),
    sourceSegmentIds: [...new Set(object.sourceSegmentIds.map((id) => labelOf.get(id)).filter((id): id is string => id !== undefined))],
  } as unknown as ExtractedItem))

  // SPOKEN_SAVE_DIR: what the server wrote and when each labelled segment was spoken, per meeting
  // (to re-read extraction on the same recognizer output without transcribing again).
  if (process.env.SPOKEN_SAVE_DIR) mkdirSync(process.env.SPOKEN_SAVE_DIR, { recursive: true })
  if (process.env.SPOKEN_SAVE_DIR) writeFileSync(path.join(process.env.SPOKEN_SAVE_DIR, `${fixture.id}.json`), JSON.stringify({ segments, spans: spoken.spans }))
  const speakerChanges = spoken.spans.flatMap((span, index) => index > 0 && spoken.spans[index - 1]!.speakerId !== span.speakerId ? [span.startMs] : [])
  const boundaries = segments.flatMap((segment, index) => index > 0 && segments[index - 1]!.speakerId !== segment.speakerId ? [segment.startMs] : [])
  const found = speakerChanges.filter((at) => boundaries.some((boundary) => Math.abs(boundary - at) <= 600)).length
  const turns: { speakerId: string; startMs: number; endMs: number }[] = []
  for (const span of spoken.spans) {
    const last = turns[turns.length - 1]
    if (last && last.speakerId === span.speakerId) last.endMs = span.endMs
    else turns.push({ ...span })
  }
  const pure = segments.filter((segment) => turns.some((turn) => overlapOf(segment, turn) >= 0.9 * Math.max(1, segment.endMs - segment.startMs))).length

  return {
    fixture,
    score: scoreMeeting(fixture.expected, items, DEFAULT_QUALITY_GATE),
    wer: wordErrorRate(fixture.segments.map((segment) => segment.text).join(' '), segments.map((segment) => segment.text).join(' ')),
    audioSeconds: spoken.pcm.length / 32_000,
    seconds,
    turnChanges: { found, total: speakerChanges.length },
    pureSegments: { pure, total: segments.length },
    segmentCount: segments.length,
    segments,
    itemConfidence: new Map(objects.map((object) => {
      const cited = segments.filter((segment) => object.sourceSegmentIds.includes(segment.id)).map((segment) => segment.confidence ?? 1)
      return [object.id, cited.reduce((a, b) => a + b, 0) / Math.max(1, cited.length)] as const
    })),
  }
}

/** The engine the spoken evaluation hears with: the default (moonshine; MOONSHINE_MODEL_DIR for another model), or SPOKEN_ENGINE=pocketsphinx. */
const ENGINE = process.env.SPOKEN_ENGINE ?? 'moonshine'

export async function evaluateSpoken(ids: string[], log: (line: string) => void = () => {}): Promise<SpokenResult[]> {
  const fixtures = loadMeetingFixtures().filter((fixture) => ids.includes(fixture.id))
  const h = await createHarness('sqlite', { env: { STT_ENGINE: ENGINE, ...(process.env.MOONSHINE_MODEL_DIR ? { MOONSHINE_MODEL_DIR: process.env.MOONSHINE_MODEL_DIR } : {}) } })
  try {
    const results: SpokenResult[] = []
    // Meetings run a few at a time (pocketsphinx in child processes, moonshine on onnxruntime's threads: SPOKEN_CONCURRENCY, default 3).
    const queue = [...fixtures]
    const worker = async () => {
      for (let fixture = queue.shift(); fixture; fixture = queue.shift()) {
      const result = await runMeeting(h, fixture)
      log(`  ${fixture.id.padEnd(30)} WER ${(result.wer * 100).toFixed(1).padStart(5)} %  turns ${result.turnChanges.found}/${result.turnChanges.total}  one-turn segments ${result.pureSegments.pure}/${result.pureSegments.total}  F1 ${(summarize([result.score]).overall.f1 * 100).toFixed(0)} %  (${result.audioSeconds.toFixed(0)} s audio in ${result.seconds.toFixed(0)} s)`)
      results.push(result)
      }
    }
    await Promise.all(Array.from({ length: Number(process.env.SPOKEN_CONCURRENCY ?? 3) }, worker))
    return fixtures.map((fixture) => results.find((result) => result.fixture === fixture)!)
  } finally {
    await h.close()
  }
}

export function formatSpoken(name: string, results: SpokenResult[]): string {
  const words = results.reduce((sum, result) => sum + result.fixture.segments.map((segment) => segment.text).join(' ').split(/\s+/).length, 0)
  const wer = results.reduce((sum, result) => sum + result.wer * result.fixture.segments.map((segment) => segment.text).join(' ').split(/\s+/).length, 0) / Math.max(1, words)
  const found = results.reduce((sum, result) => sum + result.turnChanges.found, 0)
  const changes = results.reduce((sum, result) => sum + result.turnChanges.total, 0)
  const pure = results.reduce((sum, result) => sum + result.pureSegments.pure, 0)
  const segments = results.reduce((sum, result) => sum + result.pureSegments.total, 0)
  const audio = results.reduce((sum, result) => sum + result.audioSeconds, 0)
  const seconds = results.reduce((sum, result) => sum + result.seconds, 0)
  return [
    formatReport(summarize(results.map((result) => result.score)), `Spoken, ${name} split: ${results.length} meetings, ${(audio / 60).toFixed(1)} min of flite speech through the server (${ENGINE})`, { dueDates: false }),
    `word error rate ${(wer * 100).toFixed(1)} %   speaker changes found ${found}/${changes} (${((found / Math.max(1, changes)) * 100).toFixed(0)} %)   segments within one speaker turn ${pure}/${segments} (${((pure / Math.max(1, segments)) * 100).toFixed(0)} %)`,
    `processing: ${audio.toFixed(0)} s of audio in ${seconds.toFixed(0)} s (real-time factor ${(seconds / Math.max(1, audio)).toFixed(2)}, synthesis excluded, uploads included)`,
  ].join('\n')
}

export async function runSpokenEval(argv: string[]): Promise<void> {
  if (!(hasFlite && hasPocketsphinx && hasFfmpeg)) {
    console.log('spoken evaluation: skipped (install flite, pocketsphinx, pocketsphinx-en-us and ffmpeg)')
    return
  }
  const only = argv.find((argument) => argument.startsWith('--split='))?.slice('--split='.length)
  const picked = argv.find((argument) => argument.startsWith('--meetings='))?.slice('--meetings='.length).split(',')
  const verbose = argv.includes('--verbose')
  if (only && !spokenSplitNames.includes(only as SplitName)) throw new Error(`unknown spoken split ${only} (known: ${spokenSplitNames.join(', ')})`)
  const splits = picked ? [['chosen', picked] as const] : (only ? [only as SplitName] : defaultSplitNames).map((name) => [name, spokenSplit[name]] as const)
  for (const [name, ids] of splits) {
    console.log(`${name}:`)
    const results = await evaluateSpoken([...ids], (line) => console.log(line))
    if (verbose) {
      for (const { fixture, score, itemConfidence } of results) {
        console.log(`\n${fixture.id}`)
        const heard = (key: string) => (itemConfidence.get(key) ?? 1).toFixed(2)
        for (const label of score.missed) console.log(`  missed   ${label.kind.padEnd(9)} [${label.sourceSegmentIds.join(',')}] ${label.title}`)
        for (const item of score.spurious) console.log(`  spurious ${item.kind.padEnd(9)} ${heard(item.key)} [${item.sourceSegmentIds.join(',')}] ${item.title}`)
        if (argv.includes('--confidence')) for (const match of score.matches) console.log(`  matched  ${match.produced.kind.padEnd(9)} ${heard(match.produced.key)} ${match.produced.title}`)
      }
    }
    // The held-out meetings' transcripts are never printed: reading them would tune the rules to them.
    if (argv.includes('--transcripts') && !ids.some((id) => spokenSplitNames.some((split) => split !== 'development' && (spokenSplit[split] ?? []).includes(id)))) {
      for (const { fixture, segments } of results) {
        console.log(`\n${fixture.id}`)
        for (const segment of segments) console.log(`  ${String(segment.startMs).padStart(7)} ${(segment.speakerId ?? '').padEnd(12)} ${segment.text}`)
      }
    }
    console.log('\n' + formatSpoken(name, results) + '\n')
  }
}
