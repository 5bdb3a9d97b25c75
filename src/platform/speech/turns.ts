// Turns and sentences inside one recognized utterance. Voice activity only cuts where people
// pause; people often do not (one takes over as the other stops), so an utterance may hold several
// speakers and many sentences. Here it is cut (1) where the voice changes — pitch and spectral
// envelope of the speech before and after a word boundary differ as much as two voices do — and
// (2) into sentences, from the recognizer's pauses and from wording (punctuate.ts). Each piece
// becomes one transcript segment; a piece never spans a voice change.
import { punctuate, sentenceBreaks, type SpokenWord } from './punctuate.ts'
import { FRAME_MS, summarize, voiceDistance, voiceFrames, type VoiceFrame } from './voice.ts'

export type TurnPiece = {
  /** relative to the start of the utterance */
  startMs: number
  endMs: number
  words: SpokenWord[]
  /** punctuated and capitalized */
  text: string
  /** index of the voice turn inside the utterance (0, 1, …): pieces of one turn share a speaker */
  turn: number
}

/** Speech compared either side of a boundary (1.2 s: a turn of one short sentence still fills most of it). */
const WINDOW_MS = 1200
/** Distance at and above which the two sides count as different voices (voice.ts). */
const CHANGE_DISTANCE = 2.5
/** Each side needs this much voiced speech to be compared. */
const MIN_VOICED_FRAMES = 25
/** Two voice changes are at least this far apart (a turn of a few words is still a turn). */
const MIN_TURN_MS = 700
/** A change is the strongest boundary within this distance. */
const PEAK_MS = 1000

export type SplitOptions = {
  /** cut into sentences too (default true); false keeps one piece per voice turn */
  sentences?: boolean
  /** words to write with capitals (names, projects), lower-cased → as written */
  properNouns?: Map<string, string>
  /**
   * The engine's own written text (OpenAI-compatible, whisper.cpp: punctuated and capitalized).
   * Its sentences are kept as written and laid over the words in order; without it (pocketsphinx)
   * sentences and punctuation are restored from the words.
   */
  writtenText?: string
  /** word indexes where a new voice turn starts, when the engine already found them (moonshine.ts) */
  changes?: number[]
}

/** Abbreviations and spelled letters that end with a period inside a sentence ("Dr. Patel", "T. R. 804"). */
const NOT_AN_END = /(?:^|\s)(?:\p{Lu}|Dr|Mr|Mrs|Ms|St|vs|etc|e\.g|i\.e|approx)\.$/u

/** The engine's text cut after . ! ? … 。！？, not after an abbreviation or a spelled letter, nor before a lower-case word. */
function writtenSplit(text: string): string[] {
  const sentences: string[] = []
  for (const piece of text.split(/(?<=[.!?…。！？])\s+/)) {
    const last = sentences[sentences.length - 1]
    if (last !== undefined && (NOT_AN_END.test(last) || /^\p{Ll}/u.test(piece))) sentences[sentences.length - 1] = `${last} ${piece}`
    else sentences.push(piece)
  }
  return sentences.map((sentence) => sentence.trim()).filter(Boolean)
}

/** Written sentences laid over the timed words by word count; undefined when they do not line up. */
function writtenSentences(text: string, words: SpokenWord[]): { words: SpokenWord[]; text: string }[] | undefined {
  const sentences = writtenSplit(text)
  const counts = sentences.map((sentence) => sentence.split(/\s+/).filter((token) => /[\p{L}\p{N}]/u.test(token)).length)
  if (counts.reduce((a, b) => a + b, 0) !== words.length) return undefined
  const result: { words: SpokenWord[]; text: string }[] = []
  let at = 0
  sentences.forEach((sentence, index) => {
    if (counts[index]! > 0) result.push({ words: words.slice(at, at + counts[index]!), text: sentence })
    at += counts[index]!
  })
  return result
}

/** Word-boundary indexes (a boundary i sits before word i) where the voice changes. */
export function voiceChanges(frames: VoiceFrame[], words: SpokenWord[]): number[] {
  const boundaries = words.map((word, index) => index === 0 ? 0 : Math.round((words[index - 1]!.endMs + word.startMs) / 2))
  return changesAmong(frames, boundaries)
}

/**
 * Which of the candidate boundaries (ms from the start; boundary i sits before stretch i, the
 * first is never a change) are voice changes: word boundaries, or evenly spaced times when the
 * engine gives no words (parts.ts).
 */
export function changesAmong(frames: VoiceFrame[], boundaries: number[]): number[] {
  const scores: { index: number; at: number; distance: number }[] = []
  for (let index = 1; index < boundaries.length; index += 1) {
    const at = boundaries[index]!
    const left = summarize(frames, Math.max(0, at - WINDOW_MS), at)
    const right = summarize(frames, at, at + WINDOW_MS)
    if (left.voiced < MIN_VOICED_FRAMES || right.voiced < MIN_VOICED_FRAMES) continue
    scores.push({ index, at, distance: voiceDistance(left, right) })
  }
  // Peaks above the threshold: the highest within PEAK_MS either side, strongest first, kept
  // apart by MIN_TURN_MS (the distance rises over a whole window around a real change).
  const chosen: { index: number; at: number }[] = []
  for (const candidate of [...scores].sort((a, b) => b.distance - a.distance)) {
    if (candidate.distance < CHANGE_DISTANCE) break
    if (scores.some((other) => other.distance > candidate.distance && Math.abs(other.at - candidate.at) < PEAK_MS)) continue
    if (chosen.some((other) => Math.abs(other.at - candidate.at) < MIN_TURN_MS)) continue
    chosen.push(candidate)
  }
  // Each change moved to the nearby boundary (±2) where short windows differ most: the wide
  // windows find that the voice changed, the short ones where.
  const refined = chosen.map(({ index }) => {
    let best = index
    let bestDistance = -1
    for (let candidate = Math.max(1, index - 2); candidate <= Math.min(boundaries.length - 1, index + 2); candidate += 1) {
      const at = boundaries[candidate]!
      const left = summarize(frames, Math.max(0, at - REFINE_MS), at)
      const right = summarize(frames, at, at + REFINE_MS)
      if (left.voiced < 8 || right.voiced < 8) continue
      const distance = voiceDistance(left, right)
      if (distance > bestDistance) {
        best = candidate
        bestDistance = distance
      }
    }
    return best
  })
  return [...new Set(refined)].sort((a, b) => a - b)
}

/** Short windows that place a change found with the wide ones. */
const REFINE_MS = 600

/** The utterance's words cut at voice changes and sentence ends, each piece punctuated. */
export function splitUtterance(samples: Int16Array, words: SpokenWord[], options: SplitOptions = {}): TurnPiece[] {
  const ordered = [...words].filter((word) => word.word).sort((a, b) => a.startMs - b.startMs)
  if (ordered.length === 0) return []
  const changes = options.changes ?? voiceChanges(voiceFrames(samples), ordered)
  const pieces: TurnPiece[] = []
  const written = options.writtenText ? writtenSentences(options.writtenText, ordered) : undefined
  if (written) {
    // Written sentences stay as written; a voice change starts a new turn, cutting a sentence
    // in two where it falls inside one (a segment never spans two voices).
    let turn = 0
    let at = 0
    for (const sentence of written) {
      const end = at + sentence.words.length
      const tokens = sentence.text.split(/\s+/)
      let from = 0
      let tokenFrom = 0
      for (const change of changes.filter((change) => change >= at && change < end)) {
        if (change === 0) continue
        const cut = change - at
        if (cut > from) {
          let counted = 0
          let tokenCut = tokenFrom
          while (tokenCut < tokens.length && counted < cut - from) {
            if (/[\p{L}\p{N}]/u.test(tokens[tokenCut]!)) counted += 1
            tokenCut += 1
          }
          const part = sentence.words.slice(from, cut)
          pieces.push({ startMs: part[0]!.startMs, endMs: part[part.length - 1]!.endMs, words: part, text: tokens.slice(tokenFrom, tokenCut).join(' '), turn })
          from = cut
          tokenFrom = tokenCut
        }
        turn += 1
      }
      const part = sentence.words.slice(from)
      pieces.push({ startMs: part[0]!.startMs, endMs: part[part.length - 1]!.endMs, words: part, text: tokens.slice(tokenFrom).join(' '), turn })
      at = end
    }
    return pieces
  }
  const bounds = [0, ...changes, ordered.length]
  for (let turn = 0; turn + 1 < bounds.length; turn += 1) {
    const turnWords = ordered.slice(bounds[turn]!, bounds[turn + 1]!)
    const breaks = options.sentences === false ? [] : sentenceBreaks(turnWords)
    const cuts = [0, ...breaks, turnWords.length]
    for (let index = 0; index + 1 < cuts.length; index += 1) {
      const sentenceWords = turnWords.slice(cuts[index]!, cuts[index + 1]!)
      if (sentenceWords.length === 0) continue
      pieces.push({
        startMs: sentenceWords[0]!.startMs,
        endMs: sentenceWords[sentenceWords.length - 1]!.endMs,
        words: sentenceWords,
        text: punctuate(sentenceWords.map((word) => word.word), options.properNouns),
        turn,
      })
    }
  }
  return pieces
}

export { FRAME_MS }
