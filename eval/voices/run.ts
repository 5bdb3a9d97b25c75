// `npm run eval -- --voices` (held-out voices) or `--voices=development`: speaker naming on
// meetings synthesized with flite and espeak-ng. Four voices enroll (three utterances each), two
// never do; 20 sessions of 3–4 voices. Each session goes through what the server does: voice
// activity → per-utterance speaker embedding → diarization (speakers.ts, as the transcription
// pipeline calls it, anchored by the enrolled profiles) → each session speaker's voiceprint judged against the enrolled profiles
// (voice/judge.ts, the engine's naming rule). Reports the share of
// enrolled speakers' turns named correctly, turns of never-enrolled voices given a name, and the
// diarization error rate (10 ms frames, hypothesis speakers mapped greedily to reference ones).
// `VOICE_EVAL_DUMP=file.json` also writes each turn's verdict (score, s-norm, margin, utterances) for analysis.
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { judge, type Verdict } from '../../src/modules/voice/judge.ts'
import { pcmSamples } from '../../src/platform/speech/audio.ts'
import { builtinEmbedder, centroid } from '../../src/platform/speech/embedding/index.ts'
import { medianPitch } from '../../src/platform/speech/pitch.ts'
import { addToVoiceprint, assignSpeaker, assignSpeakerByVoice, type KnownSpeaker } from '../../src/platform/speech/speakers.ts'
import { detectUtterances } from '../../src/platform/speech/vad.ts'
import { development, heldOut, heldOut2, SESSION_SEEDS, SESSIONS, type Roster, type Voice } from './split.ts'

const SENTENCES = [
  'Let us start with the status of the mobile release.', 'The build failed twice last night because of a flaky test.',
  'I talked to the customer and they want the export feature first.', 'We should move the design review to Thursday.',
  'Can someone check the invoice numbers before we send them?', 'The new onboarding flow reduced support tickets a lot.',
  'I am not sure the database migration is safe to run today.', 'Marketing needs the screenshots by the end of the week.',
  'Our budget for the quarter is almost spent already.', 'Please write down the decision so that nobody forgets it.',
  'The vendor promised a fix but they did not give a date.', 'I will pair with the new engineer on the search bug.',
  'We could try a smaller rollout in one region first.', 'The latency dropped after we added the cache layer.',
  'Who is going to present the results to the board?', 'Let me share my screen and walk you through the numbers.',
  'The contract renewal is due at the end of next month.', 'I think we need one more person on the platform team.',
  'The accessibility audit found three serious problems.', 'Thanks everyone, that is all for today.',
]
const ENROLLMENT_TEXTS = [
  'My voice is my own and I agree to be named in our meetings.',
  'The quick brown fox jumps over the lazy dog near the river bank.',
  'Please call me back tomorrow morning about the budget review.',
]

const cache = path.join(tmpdir(), 'confer-voice-eval')
mkdirSync(cache, { recursive: true })

/** 16 kHz mono samples of one utterance (cached by voice and text). */
export function speak(voice: Voice, text: string): Int16Array {
  const key = createHash('sha256').update(`${voice.id}\n${voice.options ? `${voice.options.join(' ')}\n` : ''}${text}`).digest('hex').slice(0, 24)
  const pcm = path.join(cache, `${key}.pcm`)
  if (!existsSync(pcm)) {
    const wav = path.join(cache, `${key}.wav`)
    if (voice.synthesizer === 'flite') execFileSync('flite', ['-voice', voice.voice, ...voice.options ?? [], '-t', text, '-o', wav])
    else execFileSync('espeak-ng', ['-v', voice.voice, ...voice.options ?? [], '-w', wav, text])
    writeFileSync(pcm, execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-i', wav, '-f', 's16le', '-ac', '1', '-ar', '16000', 'pipe:1'], { maxBuffer: 1 << 26 }))
  }
  return pcmSamples(readFileSync(pcm))
}

function random(seed: number) {
  let state = seed >>> 0
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0
    return state / 0x1_0000_0000
  }
}

type Turn = { voice: Voice; startSample: number; endSample: number }

export function synthesizeSession(roster: Roster, seed: number) {
  const next = random(seed)
  const voices = [...roster.enrolled, ...roster.neverEnrolled].sort(() => next() - 0.5).slice(0, 3 + Math.floor(next() * 2))
  const turnCount = 6 + Math.floor(next() * 4)
  const parts: Int16Array[] = []
  const turns: Turn[] = []
  let length = 0
  let previous: Voice | undefined
  for (let index = 0; index < turnCount; index += 1) {
    const candidates = voices.filter((voice) => voice !== previous)
    const voice = index < voices.length ? voices[index]! : candidates[Math.floor(next() * candidates.length)]!
    previous = voice
    const gap = new Int16Array(Math.round(16 * (700 + next() * 800)))
    const audio = speak(voice, SENTENCES[Math.floor(next() * SENTENCES.length)]!)
    parts.push(gap, audio)
    turns.push({ voice, startSample: length + gap.length, endSample: length + gap.length + audio.length })
    length += gap.length + audio.length
  }
  parts.push(new Int16Array(16 * 800))
  const samples = new Int16Array(parts.reduce((sum, part) => sum + part.length, 0))
  let offset = 0
  for (const part of parts) {
    samples.set(part, offset)
    offset += part.length
  }
  return { samples, turns }
}

export async function runVoiceEval(argv: string[]) {
  const splitName = argv.find((argument) => argument.startsWith('--voices='))?.slice('--voices='.length) ?? 'held-out'
  const roster = splitName === 'development' ? development : splitName === 'held-out-2' ? heldOut2 : heldOut
  const seed = splitName === 'development' ? SESSION_SEEDS.development : splitName === 'held-out-2' ? SESSION_SEEDS.heldOut2 : SESSION_SEEDS.heldOut
  const engine = builtinEmbedder()
  const rule = engine.naming
  const dump: unknown[] = []
  const candidates = await Promise.all(roster.enrolled.map(async (voice) => ({
    accountId: voice.id, name: voice.id,
    embedding: centroid(await Promise.all(ENROLLMENT_TEXTS.map(async (text) => Array.from((await engine.embed(speak(voice, text)))!))))!,
  })))
  // As the pipeline does: enrolled profiles anchor diarization.
  const anchors = { profiles: candidates.map((candidate) => candidate.embedding), similarity: engine.anchorThreshold }
  const enrolledIds = new Set(roster.enrolled.map((voice) => voice.id))
  let enrolledTurns = 0
  let correctlyNamed = 0
  let unenrolledTurns = 0
  let unenrolledNamed = 0
  let suggestedTurns = 0
  let unenrolledSuggested = 0
  let speechFrames = 0
  let errorFrames = 0
  const started = Date.now()
  let audioMs = 0
  for (let session = 0; session < SESSIONS; session += 1) {
    const { samples, turns } = synthesizeSession(roster, seed + session)
    audioMs += samples.length / 16
    // The server's steps, as in transcripts/pipeline.ts.
    const utterances = await detectUtterances(samples)
    const known: KnownSpeaker[] = []
    const assigned: string[] = []
    for (const utterance of utterances) {
      const audio = samples.subarray(utterance.startSample, utterance.endSample)
      const pitch = medianPitch(audio)
      const embedding = await engine.embed(audio, { pitchHz: pitch })
      const speaker = (embedding && assignSpeakerByVoice(known, embedding, engine.sameVoiceThreshold, pitch, anchors)) || assignSpeaker(known, pitch)
      if (speaker.isNew) known.push({ speakerId: speaker.speakerId, pitchHz: speaker.pitchHz })
      if (embedding) addToVoiceprint(known.find((candidate) => candidate.speakerId === speaker.speakerId)!, embedding)
      assigned.push(speaker.speakerId)
    }
    const verdicts = new Map<string, Verdict>(known.map((speaker) => [speaker.speakerId, speaker.embedding ? judge(speaker.embedding, speaker.weight ?? 0, candidates, rule, engine.cohort) : { state: 'unnamed' }]))
    // Naming per reference turn: the hypothesis speaker overlapping it most.
    const overlap = (a: { startSample: number; endSample: number }, b: { startSample: number; endSample: number }) => Math.max(0, Math.min(a.endSample, b.endSample) - Math.max(a.startSample, b.startSample))
    for (const turn of turns) {
      let best = -1
      let bestOverlap = 0
      for (const [index, utterance] of utterances.entries()) {
        const shared = overlap(turn, utterance)
        if (shared > bestOverlap) {
          best = index
          bestOverlap = shared
        }
      }
      const verdict = best >= 0 ? verdicts.get(assigned[best]!) : undefined
      if (process.env.VOICE_EVAL_DUMP) {
        const speaker = best >= 0 ? known.find((candidate) => candidate.speakerId === assigned[best]) : undefined
        dump.push({ session, voice: turn.voice.id, enrolled: enrolledIds.has(turn.voice.id), speaker: speaker?.speakerId, utterances: speaker?.weight ?? 0, candidate: verdict?.candidate?.accountId, score: verdict?.score, normalized: verdict?.normalized, margin: verdict?.margin })
      }
      const name = verdict?.state === 'named' ? verdict.candidate!.accountId : undefined
      if (verdict?.state === 'suggested') suggestedTurns += 1
      if (verdict?.state === 'suggested' && !enrolledIds.has(turn.voice.id)) unenrolledSuggested += 1
      if (enrolledIds.has(turn.voice.id)) {
        enrolledTurns += 1
        if (name === turn.voice.id) correctlyNamed += 1
      } else {
        unenrolledTurns += 1
        if (name) unenrolledNamed += 1
      }
    }
    // Diarization error rate over 10 ms frames: missed speech, false alarm, confusion.
    const frame = 160
    const frames = Math.ceil(samples.length / frame)
    const reference = new Array<string | undefined>(frames)
    const hypothesis = new Array<string | undefined>(frames)
    for (const turn of turns) for (let index = Math.floor(turn.startSample / frame); index < Math.floor(turn.endSample / frame); index += 1) reference[index] = turn.voice.id
    for (const [position, utterance] of utterances.entries()) {
      for (let index = Math.floor(utterance.startSample / frame); index < Math.floor(utterance.endSample / frame); index += 1) hypothesis[index] = assigned[position]
    }
    const counts = new Map<string, number>()
    for (let index = 0; index < frames; index += 1) {
      if (reference[index] && hypothesis[index]) counts.set(`${hypothesis[index]}|${reference[index]}`, (counts.get(`${hypothesis[index]}|${reference[index]}`) ?? 0) + 1)
    }
    const mapping = new Map<string, string>()
    const used = new Set<string>()
    for (const [pair] of [...counts.entries()].sort((a, b) => b[1] - a[1])) {
      const [hyp, ref] = pair.split('|') as [string, string]
      if (mapping.has(hyp) || used.has(ref)) continue
      mapping.set(hyp, ref)
      used.add(ref)
    }
    for (let index = 0; index < frames; index += 1) {
      const ref = reference[index]
      const hyp = hypothesis[index]
      if (ref) speechFrames += 1
      if (ref && !hyp) errorFrames += 1
      else if (!ref && hyp) errorFrames += 1
      else if (ref && hyp && mapping.get(hyp) !== ref) errorFrames += 1
    }
  }
  if (process.env.VOICE_EVAL_DUMP) writeFileSync(process.env.VOICE_EVAL_DUMP, JSON.stringify(dump))
  const share = (part: number, whole: number) => (whole ? (part / whole).toFixed(3) : '-')
  console.log(`Voice naming, ${splitName} voices (${roster.enrolled.map((voice) => voice.id).join(', ')} enrolled; ${roster.neverEnrolled.map((voice) => voice.id).join(', ')} never), ${SESSIONS} sessions, engine ${engine.modelVersion}`)
  console.log(`  enrolled speakers' turns named correctly: ${correctlyNamed}/${enrolledTurns} = ${share(correctlyNamed, enrolledTurns)} (goal ≥ 0.95)`)
  console.log(`  never-enrolled voices' turns given a name: ${unenrolledNamed}/${unenrolledTurns} (goal 0)`)
  console.log(`  turns left as a suggestion (a person confirms): ${suggestedTurns}, of them never-enrolled voices' ${unenrolledSuggested}`)
  console.log(`  diarization error rate: ${share(errorFrames, speechFrames)} (missed + false alarm + confusion over reference speech, 10 ms frames)`)
  console.log(`  ${(audioMs / 1000).toFixed(0)} s of audio in ${((Date.now() - started) / 1000).toFixed(1)} s`)
}
