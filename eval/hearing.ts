// `npx node eval/hearing.ts --split=development[,held-out…] [--out=file.json]`: hearing alone, the
// spoken evaluation's audio (eval/spoken.ts `speakMeeting`, cached by meeting in $HEARING_CACHE)
// cut by the VAD, decoded by the default engine in ~100 s batches with the vocabulary the server
// gives it (the participants' names, MEETING_WORDS, MEETING_PHRASES), then the vocabulary and
// number steps; word error rate and the errors on the words extraction reads (cue words), per split.
// No server, no extraction: for comparing engine settings on the same audio (docs/speech.md).
// `--meetings=id,…` keeps those of the named splits. Only the seen spoken splits may be named.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { batchBinOf } from '../src/platform/speech/engines/index.ts'
import { pocketsphinxEngine } from '../src/platform/speech/engines/pocketsphinx.ts'
import { normalizeNumbers } from '../src/platform/speech/numbers.ts'
import { detectUtterances } from '../src/platform/speech/vad.ts'
import { buildTerms, hearTerms, loadLexicon, MEETING_PHRASES, MEETING_WORDS, soundsLikePrefix } from '../src/platform/speech/vocabulary.ts'
import type { MeetingFixture } from '../test/fixtures/meetings.ts'
import { meetingFixturesDirectory } from '../test/fixtures/meetings.ts'
import { speakMeeting, spokenSplit } from './spoken.ts'

const SEEN = ['development', 'held-out', 'held-out-2', 'held-out-3', 'held-out-4', 'held-out-5', 'held-out-6', 'held-out-7', 'held-out-8'] as const
type Seen = (typeof SEEN)[number]

/** Words extraction's rules read (owners, commitments, decisions, dates, questions). */
const CUE_WORDS = new Set(`i'll we'll let's can could you will would decided agreed decide agree by monday tuesday wednesday thursday friday
  saturday sunday tomorrow today next week month who should need sure owns own take send follow up check deadline due end`.split(/\s+/).filter(Boolean))

const tokens = (text: string) => text.toLowerCase().replace(/[^a-z0-9' ]+/g, ' ').split(/\s+/).filter(Boolean)

/** Edit distance with the cue words missed (deleted or substituted) and inserted (inserted or substituted in). */
export function alignErrors(reference: string[], hypothesis: string[]) {
  const rows = reference.length + 1
  const cols = hypothesis.length + 1
  const cost = new Int32Array(rows * cols)
  for (let j = 0; j < cols; j += 1) cost[j] = j
  for (let i = 1; i < rows; i += 1) {
    cost[i * cols] = i
    for (let j = 1; j < cols; j += 1) {
      const same = reference[i - 1] === hypothesis[j - 1] ? 0 : 1
      cost[i * cols + j] = Math.min(cost[(i - 1) * cols + j]! + 1, cost[i * cols + j - 1]! + 1, cost[(i - 1) * cols + j - 1]! + same)
    }
  }
  let missed = 0
  let inserted = 0
  let i = rows - 1
  let j = cols - 1
  while (i > 0 || j > 0) {
    const here = cost[i * cols + j]!
    if (i > 0 && j > 0 && here === cost[(i - 1) * cols + j - 1]! + (reference[i - 1] === hypothesis[j - 1] ? 0 : 1)) {
      if (reference[i - 1] !== hypothesis[j - 1]) {
        if (CUE_WORDS.has(reference[i - 1]!)) missed += 1
        if (CUE_WORDS.has(hypothesis[j - 1]!)) inserted += 1
      }
      i -= 1
      j -= 1
    } else if (i > 0 && here === cost[(i - 1) * cols + j]! + 1) {
      if (CUE_WORDS.has(reference[i - 1]!)) missed += 1
      i -= 1
    } else {
      if (CUE_WORDS.has(hypothesis[j - 1]!)) inserted += 1
      j -= 1
    }
  }
  return { errors: cost[rows * cols - 1]!, words: reference.length, cues: reference.filter((word) => CUE_WORDS.has(word)).length, missed, inserted }
}

const BATCH_SAMPLES = 100 * 16000

async function hearMeeting(fixture: MeetingFixture, cacheDir: string) {
  const cached = path.join(cacheDir, `${fixture.id}.pcm`)
  if (!existsSync(cached)) {
    // Runs side by side may synthesize the same meeting: each writes its own file and renames.
    writeFileSync(`${cached}.${process.pid}`, speakMeeting(fixture).pcm)
    renameSync(`${cached}.${process.pid}`, cached)
  }
  const bytes = readFileSync(cached)
  const samples = new Int16Array(bytes.buffer, bytes.byteOffset, bytes.length / 2)
  const lexicon = await loadLexicon()
  const names = (fixture.participants ?? []).map((participant) => participant.name)
  const own = [...names, ...names.flatMap((name) => name.split(/\s+/))]
  const terms = [...buildTerms(own, lexicon, true), ...buildTerms(MEETING_WORDS, lexicon, false)]
  const vocabulary = [...terms.map((term) => term.written), ...MEETING_PHRASES]
  const engine = pocketsphinxEngine('pocketsphinx_continuous', batchBinOf('pocketsphinx_continuous'))
  const utterances = await detectUtterances(samples)
  const heard: string[] = []
  for (let first = 0; first < utterances.length;) {
    let last = first
    while (last < utterances.length && utterances[last]!.endSample - utterances[first]!.startSample <= BATCH_SAMPLES) last += 1
    if (last === first) last += 1
    const batch = utterances.slice(first, last)
    const results = await engine.transcribe(batch.map((utterance) => samples.subarray(utterance.startSample, utterance.endSample)), { language: 'en', vocabulary })
    for (const result of results) {
      const words = normalizeNumbers(hearTerms(result.words ?? [], terms, lexicon), { known: [], soundsLike: soundsLikePrefix(lexicon) })
      heard.push(...words.map((word) => word.word))
    }
    first = last
  }
  const reference = tokens(fixture.segments.map((segment) => segment.text).join(' '))
  return { ...alignErrors(reference, tokens(heard.join(' '))), audioSeconds: samples.length / 16000, heard: heard.join(' ') }
}

const argument = (name: string) => process.argv.find((value) => value.startsWith(`--${name}=`))?.slice(name.length + 3)
const splits = (argument('split') ?? 'development').split(',') as Seen[]
for (const split of splits) if (!SEEN.includes(split)) throw new Error(`${split} is not a seen spoken split`)
const cacheDir = process.env.HEARING_CACHE ?? '/tmp/confer-hearing-cache'
mkdirSync(cacheDir, { recursive: true })
const started = process.cpuUsage()
const report: Record<string, unknown> = {}
for (const split of splits) {
  const totals = { errors: 0, words: 0, cues: 0, missed: 0, inserted: 0, audioSeconds: 0 }
  const meetings: Record<string, unknown> = {}
  const only = argument('meetings')?.split(',')
  for (const id of spokenSplit[split].filter((id) => !only || only.includes(id))) {
    const fixture = JSON.parse(readFileSync(path.join(meetingFixturesDirectory, `${id}.json`), 'utf8')) as MeetingFixture
    const result = await hearMeeting(fixture, cacheDir)
    for (const key of Object.keys(totals) as (keyof typeof totals)[]) totals[key] += result[key]
    meetings[id] = { wer: Number((result.errors / result.words).toFixed(4)), missed: result.missed, inserted: result.inserted, heard: result.heard }
  }
  report[split] = { ...totals, wer: Number((totals.errors / totals.words).toFixed(4)), meetings }
  console.log(`${split}: WER ${(100 * totals.errors / totals.words).toFixed(2)} % (${totals.errors}/${totals.words}), cue words ${totals.cues}: missed ${totals.missed}, inserted ${totals.inserted}; ${totals.audioSeconds.toFixed(0)} s of audio`)
}
const cpu = process.cpuUsage(started)
console.log(`Node CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s (pocketsphinx children not counted)`)
const out = argument('out')
if (out) writeFileSync(out, JSON.stringify(report, null, 1))
