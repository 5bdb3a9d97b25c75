// The voices of the speaker-recognition eval, split before any threshold or constant was tuned
// (committed first, see docs/voice.md). `development` voices are the only ones the built-in
// engine's background statistics and the match/suggest thresholds were fitted on; `heldOut`
// voices are sealed: `npm run eval -- --voices` scores them, and nothing is tuned on that score.
export type Voice = { id: string; synthesizer: 'flite' | 'espeak-ng'; voice: string; options?: string[] }

export type Roster = { enrolled: Voice[]; neverEnrolled: Voice[] }

const flite = (voice: string): Voice => ({ id: `flite-${voice}`, synthesizer: 'flite', voice })
const espeak = (voice: string): Voice => ({ id: `espeak-${voice}`, synthesizer: 'espeak-ng', voice })
/** A flite voice with its pitch target (Hz) and speaking-rate stretch changed. */
const fliteVariant = (voice: string, f0: number, stretch: number): Voice =>
  ({ id: `flite-${voice}-f0${f0}-x${stretch}`, synthesizer: 'flite', voice, options: ['--setf', `int_f0_target_mean=${f0}`, '--setf', `duration_stretch=${stretch}`] })
/** An espeak-ng voice with its pitch (0–99, default 50) and speed (words per minute, default 175) changed. */
const espeakVariant = (voice: string, pitch: number, speed: number): Voice =>
  ({ id: `espeak-${voice}-p${pitch}-s${speed}`, synthesizer: 'espeak-ng', voice, options: ['-p', String(pitch), '-s', String(speed)] })

export const development: Roster = {
  enrolled: [flite('kal'), espeak('en+m1'), espeak('en+f1'), espeak('en+m2')],
  neverEnrolled: [espeak('en+f2'), espeak('en-gb-scotland+m5')],
}

export const heldOut: Roster = {
  enrolled: [flite('slt'), flite('rms'), espeak('en-us+f3'), espeak('en+m3')],
  neverEnrolled: [flite('awb'), espeak('en-gb-x-rp+f4')],
}

/**
 * A second held-out set (`--voices=held-out-2`), written and committed before the engine was ever
 * run on these voices, after the first held-out set had been seen (and so stopped being held out):
 * voices and pitch/speed settings used nowhere else (not in training, development or held-out).
 * The hard pair by design: flite kal16 (enrolled) and flite rms (never), both flite male voices.
 */
export const heldOut2: Roster = {
  enrolled: [fliteVariant('kal16', 135, 1.1), espeakVariant('en-us+iven3', 40, 160), espeakVariant('en+grandma', 55, 150), espeakVariant('en-gb-x-gbclan+john', 35, 170)],
  neverEnrolled: [fliteVariant('rms', 120, 0.9), espeakVariant('en+Michael', 45, 185)],
}

/** Seeds of the sessions (the texts, turn orders and which voices meet differ per split). */
export const SESSION_SEEDS = { development: 1000, heldOut: 2000, heldOut2: 3000 }
export const SESSIONS = 20
