// Speaker turns without a speaker model: each utterance's median pitch is matched to the closest
// known voice of the session (within a ratio), else it opens a new one. Ids are stable per
// session: spk_1, spk_2, … in order of first appearance.
export type KnownSpeaker = { speakerId: string; pitchHz: number | null }

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
