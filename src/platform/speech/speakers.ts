// Speaker turns: an utterance with a speaker embedding goes to the known voice of the session whose
// running embedding is most similar (at or above a similarity), else it opens a new one; without
// embeddings, its median pitch is matched to the closest known voice (within a ratio). Ids are
// stable per session: spk_1, spk_2, … in order of first appearance.
import { cosine, normalize } from './embedding/vectors.ts'

export type KnownSpeaker = { speakerId: string; pitchHz: number | null; embedding?: number[]; weight?: number }

/** Median pitches further apart than this ratio (≈ 6 semitones) are never one voice. */
const DIFFERENT_VOICE_RATIO = 1.4

/**
 * Voices known in advance (enrolled profiles) that anchor diarization: an utterance or a speaker is
 * anchored to the profile it matches at or above `similarity` (the closest such one), and an
 * utterance only joins a speaker with the same anchor (or both none). Two similar voices, one
 * enrolled and one not, are then kept apart, since the enrolled one's utterances match its profile
 * and the other's do not.
 */
export type Anchors = { profiles: ReadonlyArray<ArrayLike<number>>; similarity: number }

export function anchorOf(embedding: ArrayLike<number>, anchors: Anchors | undefined): number {
  let best = -1
  let bestScore = anchors?.similarity ?? Infinity
  for (const [index, profile] of (anchors?.profiles ?? []).entries()) {
    const score = cosine(profile, embedding)
    if (score >= bestScore) {
      best = index
      bestScore = score
    }
  }
  return best
}

/** The speaker of an utterance by its embedding, or undefined when no known voice has one. */
export function assignSpeakerByVoice(known: KnownSpeaker[], embedding: ArrayLike<number>, sameVoiceSimilarity: number, pitchHz: number | undefined, anchors?: Anchors) {
  // A voice whose pitch is far from an utterance's is not its speaker, however alike the spectra.
  const pitchAllows = (speaker: KnownSpeaker) => pitchHz === undefined || speaker.pitchHz === null
    || Math.max(pitchHz, speaker.pitchHz) / Math.min(pitchHz, speaker.pitchHz) <= DIFFERENT_VOICE_RATIO
  const anchor = anchorOf(embedding, anchors)
  const anchorAllows = (speaker: KnownSpeaker) => !anchors || anchorOf(speaker.embedding!, anchors) === anchor
  const voiced = known.filter((speaker) => speaker.embedding && pitchAllows(speaker) && anchorAllows(speaker))
  if (!known.some((speaker) => speaker.embedding)) return undefined
  let best: KnownSpeaker | undefined
  let bestScore = -Infinity
  for (const speaker of voiced) {
    // Similar spectra at a different pitch are less likely one voice: the bar rises with the pitch gap.
    const score = cosine(speaker.embedding!, embedding) - pitchPenalty(pitchHz, speaker.pitchHz)
    if (score > bestScore) {
      best = speaker
      bestScore = score
    }
  }
  if (best && bestScore >= sameVoiceSimilarity) return { speakerId: best.speakerId, isNew: false, pitchHz: best.pitchHz }
  // Known voices without an embedding (e.g. opted out of voice storage) are still told by pitch.
  const unvoiced = known.filter((speaker) => !speaker.embedding)
  const byPitch = unvoiced.length ? assignSpeaker(unvoiced, pitchHz) : undefined
  if (byPitch && !byPitch.isNew) return byPitch
  return { speakerId: `spk_${known.length + 1}`, isNew: true, pitchHz: pitchHz ?? null }
}

/**
 * Cosine taken off per unit of |ln(pitch ratio)| before the same-voice threshold: voices a few
 * semitones apart with similar spectra (several male voices) were merged by the embedding alone.
 * 1.5: 3 semitones cost 0.26. Flat from 1 to 2 on the voice evaluation's diarization error; 3 hurt it.
 */
const PITCH_SLOPE = 1.5

function pitchPenalty(a: number | undefined, b: number | null) {
  return a === undefined || b === null ? 0 : PITCH_SLOPE * Math.abs(Math.log(a / b))
}

/** A speaker's running embedding with one more utterance in it. */
export function addToVoiceprint(speaker: KnownSpeaker, embedding: ArrayLike<number>) {
  const weight = speaker.weight ?? 0
  const sum = Array.from(embedding, (value, index) => value + (speaker.embedding?.[index] ?? 0) * weight)
  speaker.embedding = normalize(sum)
  speaker.weight = weight + 1
}

/** Pitches within this ratio of each other count as the same voice (≈ 3 semitones). */
const SAME_VOICE_RATIO = 1.19

export function assignSpeaker(known: KnownSpeaker[], pitchHz: number | undefined): { speakerId: string; isNew: boolean; pitchHz: number | null } {
  if (pitchHz === undefined) {
    // Unvoiced or too short to tell: the most recent voice, or a first one.
    const last = known[known.length - 1]
    return last ? { speakerId: last.speakerId, isNew: false, pitchHz: last.pitchHz } : { speakerId: 'spk_1', isNew: true, pitchHz: null }
  }
  let closest: KnownSpeaker | undefined
  let closestRatio = Infinity
  for (const speaker of known) {
    if (speaker.pitchHz === null) continue
    const ratio = Math.max(pitchHz, speaker.pitchHz) / Math.min(pitchHz, speaker.pitchHz)
    if (ratio < closestRatio) {
      closest = speaker
      closestRatio = ratio
    }
  }
  if (closest && closestRatio <= SAME_VOICE_RATIO) return { speakerId: closest.speakerId, isNew: false, pitchHz: closest.pitchHz }
  const unpitched = known.find((speaker) => speaker.pitchHz === null)
  if (unpitched) return { speakerId: unpitched.speakerId, isNew: false, pitchHz }
  return { speakerId: `spk_${known.length + 1}`, isNew: true, pitchHz }
}

export const speakerLabel = (speakerId: string) => `Speaker ${speakerId.replace(/^spk_/, '')}`
