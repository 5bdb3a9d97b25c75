// Server-side transcription of a session (DESIGN §6). Each run takes the audio not yet processed
// (plus the kept tail of the last run), cuts it into utterances by voice activity, gives each a
// speaker by pitch, transcribes the closed ones as `final` segments and the one still being spoken
// as a `partial` (the same segment id carries on to its final; a final utterance is cut into one
// segment per sentence and voice turn: platform/speech/turns.ts), and commits segments, speakers,
// events and its progress in one transaction guarded by the state's version: a crashed or racing
// run leaves nothing half done, and a repeated run never duplicates a segment.
import type { AppDeps } from '../../platform/deps.ts'
import { newId, nowIso } from '../../platform/ids.ts'
import { msOf, pcmSamples, samplesOf } from '../../platform/speech/audio.ts'
import type { Recognized, SpeechEngine } from '../../platform/speech/engines/index.ts'
import { medianPitch } from '../../platform/speech/pitch.ts'
import { addToVoiceprint, assignSpeaker, assignSpeakerByVoice, speakerLabel, type KnownSpeaker } from '../../platform/speech/speakers.ts'
import { punctuateWords } from '../../platform/speech/punctuate.ts'
import { buildTerms, hearTerms, loadLexicon, MEETING_PHRASES, MEETING_WORDS, soundsLikePrefix, titleWords, type Lexicon, type Term } from '../../platform/speech/vocabulary.ts'
import { identifiersIn, normalizeNumbers, type KnownIdentifier } from '../../platform/speech/numbers.ts'
import { listProjects } from '../projects/index.ts'
import { listMembers } from '../workspace/index.ts'
import { splitUtterance, type TurnPiece } from '../../platform/speech/turns.ts'
import { rewriteWritten } from '../../platform/speech/written-terms.ts'
import { detectUtterances, type Utterance } from '../../platform/speech/vad.ts'
import { enqueue } from '../../platform/jobs/index.ts'
import { decodeChunks } from './decode.ts'
import { presentSegment } from './presenter.ts'
import * as repo from './repo.ts'
import { loadState, saveState } from './state.ts'
import { JOBS } from '../../domain/jobs.ts'
import { findSessionById, listChunks } from '../sessions/index.ts'

/** an utterance ending closer than this to the end of the audio may still go on */
const HANGOVER_MS = 700
/** an utterance open longer than this is closed where it stands */
const MAX_OPEN_MS = 30_000
/** audio kept after the last closed utterance when nothing is open: a word may be starting */
const KEEP_MS = 1000
/** an open utterance shorter than this gets no partial yet */
const MIN_PARTIAL_MS = 1000
/** an utterance of the new audio starting this close to the kept tail continues the open one */
const CONTINUES_MS = 600
const CHUNK_BATCH = 100
/** the extraction module's job (enqueued by name: transcripts does not depend on extraction) */
const REFINE_JOB = JOBS.refine

export type TranscribeOptions = { final: boolean }

const confidenceOf = (piece: TurnPiece) => {
  const scores = piece.words.map((word) => word.confidence).filter((value): value is number => typeof value === 'number')
  return scores.length ? Number((scores.reduce((a, b) => a + b, 0) / scores.length).toFixed(3)) : undefined
}

/**
 * The segments one recognized utterance becomes: cut at voice changes and sentence ends (a partial
 * stays whole: its id carries on to the final), punctuated unless the engine writes its own.
 */
function piecesOf(engine: SpeechEngine, utterance: Utterance, result: Recognized, audio: Int16Array, isPartial: boolean, vocabulary?: Vocabulary): TurnPiece[] {
  if (!result.text) return []
  const writes = engine.name !== 'pocketsphinx'
  // Moonshine writes what it hears but knows no one here, and spells identifiers as said: the
  // workspace's names are put in by sound and spoken identifiers written as such, as for pocketsphinx.
  const heard = vocabulary && engine.name === 'moonshine'
    ? rewriteWritten(result.text, result.words ?? [], (bare) => normalizeNumbers(hearTerms(bare, vocabulary.terms.filter((term) => term.own), vocabulary.lexicon), { known: vocabulary.identifiers, soundsLike: soundsLikePrefix(vocabulary.lexicon) }))
    : undefined
  const text = heard?.text ?? result.text
  // The engine's turns, at the same moments among the words as written now.
  const turnStarts = heard && result.turnStarts
    ? [...new Set(result.turnStarts.map((index) => heard.words.findIndex((word) => word.startMs >= result.words![index]!.startMs)).filter((index) => index > 0))]
    : result.turnStarts
  // Engines that write their own text write numbers too; pocketsphinx gives number words ("sup twenty two ninety one").
  const words = vocabulary && !writes
    ? normalizeNumbers(hearTerms(result.words ?? [], vocabulary.terms, vocabulary.lexicon), { known: vocabulary.identifiers, soundsLike: soundsLikePrefix(vocabulary.lexicon) })
    : heard?.words ?? result.words ?? []
  const properNouns = vocabulary?.properNouns
  const durationMs = msOf(utterance.endSample - utterance.startSample)
  if (words.length === 0 || (writes && !words.every((word) => word.word && !/\s/.test(word.word)))) {
    return [{ startMs: 0, endMs: durationMs, words, text: writes ? text : punctuateWords(words.length ? words : text.split(/\s+/).map((word) => ({ word, startMs: 0, endMs: 0 })), properNouns), turn: 0 }]
  }
  if (isPartial) return [{ startMs: 0, endMs: durationMs, words, text: writes ? text : punctuateWords(words, properNouns), turn: 0 }]
  return splitUtterance(audio.subarray(utterance.startSample, utterance.endSample), words, writes
    ? { writtenText: text, ...(turnStarts ? { changes: turnStarts } : {}) }
    : { ...(properNouns ? { properNouns } : {}) })
}

type Vocabulary = { lexicon: Lexicon; terms: Term[]; properNouns: Map<string, string>; workWords: string[]; identifiers: KnownIdentifier[] }

/**
 * What the default engine listens for in this workspace: its members' names and its projects'
 * names (written as the workspace writes them), the names and product words of its open work
 * (language model only) and the identifiers in their titles, plus words of meetings in general
 * (platform/speech/vocabulary.ts). Built per transcription run: a few milliseconds once the
 * dictionary is loaded.
 */
async function vocabularyOf(deps: AppDeps, workspaceId: string, sessionId: string): Promise<Vocabulary> {
  const lexicon = await loadLexicon()
  const [members, projects, titles] = await Promise.all([
    listMembers(deps.database.db, workspaceId),
    listProjects(deps.database.db, workspaceId, { status: 'active', beforeId: undefined, limit: 200 }),
    deps.ports.openWorkTitles?.(deps.database.db, workspaceId, { exceptSessionId: sessionId, limit: 300 }) ?? [],
  ])
  const names = members.map((member) => member.name?.trim() ?? '').filter(Boolean)
  const own = [...names, ...names.flatMap((name) => name.split(/\s+/)), ...projects.map((project) => project.name)]
  const properNouns = new Map<string, string>()
  for (const form of own) for (const part of form.split(/\s+/)) if (/^\p{Lu}/u.test(part) && /^[\p{L}'-]+$/u.test(part)) properNouns.set(part.toLowerCase(), part)
  // Identifiers of open work ("SUP-2291"): a number heard with their digits is written as them, and
  // their prefixes the dictionary can say ("inc", "ops") are listened for.
  const identifiers = identifiersIn(titles)
  const workWords = [...titleWords(titles, lexicon), ...new Set(identifiers.map((identifier) => identifier.prefix).filter((prefix) => lexicon.has(prefix)))]
  return { lexicon, terms: [...buildTerms(own, lexicon, true), ...buildTerms(MEETING_WORDS, lexicon, false)], properNouns, workWords, identifiers }
}

/** Transcribes everything the session has so far; with `final`, also closes what is still open. */
export async function transcribeSession(deps: AppDeps, sessionId: string, options: TranscribeOptions) {
  const engine = deps.speech.engine
  if (!engine) return
  for (let round = 0; round < 10_000; round += 1) {
    if (!await transcribeOnce(deps, engine, sessionId, options)) return
  }
}

const concat = (parts: Int16Array[]) => {
  const total = new Int16Array(parts.reduce((sum, part) => sum + part.length, 0))
  let offset = 0
  for (const part of parts) {
    total.set(part, offset)
    offset += part.length
  }
  return total
}

/** One step; true when there may be more to do. */
async function transcribeOnce(deps: AppDeps, engine: SpeechEngine, sessionId: string, { final }: TranscribeOptions) {
  const { db } = deps.database
  const session = await findSessionById(db, sessionId)
  if (!session) return false
  const state = await loadState(db, sessionId)
  const rows = await listChunks(db, sessionId, state.processed_sequence, CHUNK_BATCH)
  const chunks = rows.slice(0, CHUNK_BATCH)
  const lastBatch = rows.length <= CHUNK_BATCH
  const closing = final && lastBatch
  if (chunks.length === 0 && !(closing && state.tail_blob_key)) return false

  const decoded = await decodeChunks(deps, sessionId, chunks, { first: state.stream_first_sequence, samples: state.stream_samples })
  const tailBytes = state.tail_blob_key ? await deps.blobs.get(state.tail_blob_key) : undefined
  const audio = concat([tailBytes ? pcmSamples(tailBytes) : new Int16Array(0), ...decoded.samples])
  const baseMs = state.tail_start_ms
  const newAudioMs = msOf(decoded.samples.reduce((sum, part) => sum + part.length, 0))

  const utterances = await detectUtterances(audio)
  const closed: Utterance[] = []
  let open: Utterance | undefined
  for (const utterance of utterances) {
    const mayContinue = !closing && utterance.endSample >= audio.length - samplesOf(HANGOVER_MS)
    if (mayContinue && msOf(utterance.endSample - utterance.startSample) < MAX_OPEN_MS) open = utterance
    else closed.push(utterance)
  }
  const partial = open && msOf(open.endSample - open.startSample) >= MIN_PARTIAL_MS ? open : undefined
  const spoken = [...closed, ...(partial ? [partial] : [])]
  // The offline engines listen for the workspace's words: pocketsphinx's language model is biased
  // toward them, and both match what they heard to its names by sound.
  const vocabulary = (engine.name === 'pocketsphinx' || engine.name === 'moonshine') && spoken.length > 0 ? await vocabularyOf(deps, session.workspace_id, sessionId) : undefined
  const recognized: Recognized[] = await engine.transcribe(spoken.map((utterance) => audio.subarray(utterance.startSample, utterance.endSample)), {
    language: deps.config.speech.language,
    ...(vocabulary ? { vocabulary: [...vocabulary.terms.map((term) => term.written), ...MEETING_PHRASES, ...vocabulary.workWords] } : {}),
  })

  // What the next run starts from: the open utterance, or the last moment of audio.
  let tail: Int16Array | undefined
  let tailStartSample = audio.length
  if (open) tailStartSample = open.startSample
  else if (!closing) tailStartSample = Math.max(closed[closed.length - 1]?.endSample ?? 0, audio.length - samplesOf(KEEP_MS))
  if (tailStartSample < audio.length) tail = audio.subarray(tailStartSample)
  const tailKey = tail ? `transcripts/${sessionId}/tail-${newId('seg')}` : null
  if (tail && tailKey) await deps.blobs.put(tailKey, new Uint8Array(tail.buffer, tail.byteOffset, tail.byteLength))

  // Speaker embeddings (platform/speech/embedding) tell voices apart; their running means live in the voice module.
  const voice = deps.speech.voice
  const voiceprints = await deps.ports.voiceprints?.load(db, sessionId)
  // Enrolled members' voices keep a similar unenrolled voice from joining theirs (speakers.ts Anchors).
  const profiles = await deps.ports.voiceprints?.anchors(db, session.workspace_id) ?? []
  const anchors = profiles.length ? { profiles, similarity: voice.anchorThreshold } : undefined
  const known: KnownSpeaker[] = (await repo.listSpeakers(db, sessionId)).map((speaker) => ({
    speakerId: speaker.speaker_id, pitchHz: speaker.pitch_hz, ...voiceprints?.get(speaker.speaker_id),
  }))
  const voiceChanged = new Set<KnownSpeaker>()
  const now = nowIso()
  const committed = await db.transaction().execute(async (trx) => {
    const saved = await saveState(trx, state, {
      processed_sequence: chunks.length ? Number(chunks[chunks.length - 1]!.sequence) : state.processed_sequence,
      audio_ms: state.audio_ms + newAudioMs,
      tail_blob_key: tailKey,
      tail_start_ms: baseMs + msOf(tailStartSample),
      open_segment_id: null,
      stream_first_sequence: decoded.streamFirstSequence,
      stream_samples: decoded.streamSamples,
      engine: engine.name,
      last_error: decoded.errors.length ? decoded.errors.join('; ').slice(0, 2000) : state.last_error,
      updated_at: now,
    })
    if (!saved) return false
    // Segments carry their speaker's current label: a name once identified or set by a person.
    const labels = new Map((await repo.listSpeakers(trx, sessionId)).map((speaker) => [speaker.speaker_id, speaker.label]))
    let openId: string | null = null
    for (const [index, utterance] of spoken.entries()) {
      const result = recognized[index]!
      const isPartial = utterance === partial
      // The first utterance of this run continues the one left open by the last run.
      const continues = state.open_segment_id !== null && index === 0 && utterance.startSample < samplesOf(CONTINUES_MS)
      const firstId = continues ? state.open_segment_id! : newId('seg')
      if (isPartial) openId = firstId
      const pieces = piecesOf(engine, utterance, result, audio, isPartial, vocabulary)
      if (pieces.length === 0) {
        if (continues) await trx.deleteFrom('transcript_segments').where('id', '=', firstId).execute()
        continue
      }
      const utteranceMs = baseMs + msOf(utterance.startSample)
      // One speaker per voice turn, from the pitch of all of that turn's speech.
      const speakerOfTurn = new Map<number, string>()
      for (const [pieceIndex, piece] of pieces.entries()) {
        let speakerId = speakerOfTurn.get(piece.turn)
        if (!speakerId) {
          const turnPieces = pieces.filter((other) => other.turn === piece.turn)
          const from = utterance.startSample + samplesOf(turnPieces[0]!.startMs)
          const to = Math.min(utterance.endSample, utterance.startSample + samplesOf(turnPieces[turnPieces.length - 1]!.endMs))
          const whole = pieces.length === 1 || isPartial
          const turnAudio = whole ? audio.subarray(utterance.startSample, utterance.endSample) : audio.subarray(from, to)
          const pitch = medianPitch(turnAudio)
          const embedding = await voice.embed(turnAudio, { pitchHz: pitch })
          const speaker = (embedding && assignSpeakerByVoice(known, embedding, voice.sameVoiceThreshold, pitch, anchors)) || assignSpeaker(known, pitch)
          if (speaker.isNew) {
            known.push({ speakerId: speaker.speakerId, pitchHz: speaker.pitchHz })
            await repo.upsertSpeaker(trx, { session_id: sessionId, speaker_id: speaker.speakerId, label: speakerLabel(speaker.speakerId), pitch_hz: speaker.pitchHz, created_at: now, updated_at: now })
            await deps.events.append(trx, session.conversation_id, 'speaker.updated', { speakerId: speaker.speakerId, label: speakerLabel(speaker.speakerId) })
          }
          // A partial utterance comes back as final: only closed ones join the speaker's voiceprint.
          if (embedding && !isPartial) {
            const knownSpeaker = known.find((candidate) => candidate.speakerId === speaker.speakerId)!
            addToVoiceprint(knownSpeaker, embedding)
            voiceChanged.add(knownSpeaker)
          }
          speakerId = speaker.speakerId
          speakerOfTurn.set(piece.turn, speakerId)
        }
        const id = pieceIndex === 0 ? firstId : newId('seg')
        const single = pieces.length === 1
        const startMs = single ? utteranceMs : utteranceMs + piece.startMs
        const endMs = single ? baseMs + msOf(utterance.endSample) : utteranceMs + piece.endMs
        const row = {
          id, session_id: sessionId, workspace_id: session.workspace_id, start_ms: startMs, end_ms: endMs,
          speaker_id: speakerId, text: piece.text, status: isPartial ? 'partial' as const : 'final' as const, source: 'server' as const,
          engine: engine.name, language: result.language ?? deps.config.speech.language, confidence: confidenceOf(piece) ?? result.confidence ?? null,
          words: piece.words.length ? JSON.stringify(piece.words.map((word) => ({ ...word, startMs: word.startMs + utteranceMs, endMs: word.endMs + utteranceMs }))) : null,
          created_at: now, updated_at: now,
        }
        if (continues && pieceIndex === 0) {
          const { id: _id, created_at: _created, ...changes } = row
          await repo.updateSegment(trx, id, changes)
        } else {
          await repo.insertSegment(trx, row)
        }
        await deps.events.append(trx, session.conversation_id, isPartial ? 'transcript.partial' : 'transcript.final', {
          ...presentSegment({ ...row, confidence: row.confidence }), speakerLabel: labels.get(speakerId) ?? speakerLabel(speakerId),
        })
      }
    }
    if (voiceChanged.size) {
      await deps.ports.voiceprints?.save(trx, { sessionId, workspaceId: session.workspace_id, speakers: [...voiceChanged].map((speaker) => ({ speakerId: speaker.speakerId, embedding: speaker.embedding!, weight: speaker.weight! })) })
    }
    if (openId) await trx.updateTable('transcription_state').set({ open_segment_id: openId }).where('session_id', '=', sessionId).execute()
    // New final words while recording: propose the work they hold (the end runs its own last pass).
    if (!final && spoken.some((utterance, index) => utterance !== partial && recognized[index]!.text)) {
      await enqueue(trx, REFINE_JOB, { sessionId }, { dedupeKey: sessionId })
    }
    return true
  })
  if (!committed) {
    if (tailKey) await deps.blobs.delete(tailKey).catch(() => {})
    return true
  }
  if (state.tail_blob_key) await deps.blobs.delete(state.tail_blob_key).catch(() => {})
  // Chunks may have arrived meanwhile (their job was deduplicated against this one): look again.
  return chunks.length > 0
}
