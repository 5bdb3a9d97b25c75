// The voices of the speaker-recognition eval, split before any threshold or constant was tuned
// (committed first, see docs/voice.md). `development` voices are the only ones the built-in
// engine's background statistics and the match/suggest thresholds were fitted on; `heldOut`
// voices are sealed: `npm run eval -- --voices` scores them, and nothing is tuned on that score.
export type Voice = { id: string; synthesizer: 'flite' | 'espeak-ng'; voice: string }

export type Roster = { enrolled: Voice[]; neverEnrolled: Voice[] }

const flite = (voice: string): Voice => ({ id: `flite-${voice}`, synthesizer: 'flite', voice })
const espeak = (voice: string): Voice => ({ id: `espeak-${voice}`, synthesizer: 'espeak-ng', voice })

export const development: Roster = {
  enrolled: [flite('kal'), espeak('en+m1'), espeak('en+f1'), espeak('en+m2')],
  neverEnrolled: [espeak('en+f2'), espeak('en-gb-scotland+m5')],
}

export const heldOut: Roster = {
  enrolled: [flite('slt'), flite('rms'), espeak('en-us+f3'), espeak('en+m3')],
  neverEnrolled: [flite('awb'), espeak('en-gb-x-rp+f4')],
}

/** Seeds of the sessions (the texts, turn orders and which voices meet differ per split). */
export const SESSION_SEEDS = { development: 1000, heldOut: 2000 }
export const SESSIONS = 20
