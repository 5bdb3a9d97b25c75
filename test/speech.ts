// Speech fixtures: meetings synthesized with flite (Debian), and word error rate.
import { execFileSync, spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { tempDir } from './databases.ts'

export const hasFlite = !spawnSync('flite', ['--help'], { stdio: 'ignore' }).error
export const hasPocketsphinx = !spawnSync('pocketsphinx_continuous', ['-h'], { stdio: 'ignore' }).error
export const hasFfmpeg = !spawnSync('ffmpeg', ['-version'], { stdio: 'ignore' }).error

export type Turn = { voice: 'slt' | 'rms' | 'awb' | 'kal' | 'kal16'; text: string }
export type SpokenTurn = Turn & { startMs: number; endMs: number }

/** 16 kHz mono 16-bit PCM of one flite utterance. */
export function speak(turn: Turn): Buffer {
  const file = path.join(tempDir('confer-flite-'), 'turn.wav')
  execFileSync('flite', ['-voice', turn.voice, '-t', turn.text, '-o', file])
  return execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-i', file, '-f', 's16le', '-ac', '1', '-ar', '16000', 'pipe:1'], { maxBuffer: 64 * 1024 * 1024 })
}

/** The turns one after another with `gapMs` of silence before each: the audio and when each turn is spoken. */
export function synthesizeMeeting(turns: Turn[], gapMs = 1200): { pcm: Buffer; turns: SpokenTurn[] } {
  const gap = Buffer.alloc(Math.round(gapMs * 16) * 2)
  const parts: Buffer[] = []
  const spoken: SpokenTurn[] = []
  let bytes = 0
  for (const turn of turns) {
    parts.push(gap)
    bytes += gap.length
    const audio = speak(turn)
    spoken.push({ ...turn, startMs: Math.round(bytes / 32), endMs: Math.round((bytes + audio.length) / 32) })
    parts.push(audio)
    bytes += audio.length
  }
  parts.push(gap)
  return { pcm: Buffer.concat(parts), turns: spoken }
}

/** The PCM as a WAV, WebM/Opus or Ogg/Opus file, encoded by ffmpeg. */
export function encode(pcm: Buffer, format: 'wav' | 'webm' | 'ogg'): Buffer {
  const codec = format === 'wav' ? ['-c:a', 'pcm_s16le'] : ['-c:a', 'libopus', '-b:a', '64k']
  return execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-f', 's16le', '-ar', '16000', '-ac', '1', '-i', 'pipe:0', ...codec, '-f', format, 'pipe:1'], { input: pcm, maxBuffer: 64 * 1024 * 1024 })
}

const words = (text: string) => text.toLowerCase().replace(/[^a-z0-9' ]+/g, ' ').split(/\s+/).filter(Boolean)

/** Word error rate of `hypothesis` against `reference`: (substitutions + deletions + insertions) / reference words. */
export function wordErrorRate(reference: string, hypothesis: string): number {
  const ref = words(reference)
  const hyp = words(hypothesis)
  let previous = Array.from({ length: hyp.length + 1 }, (_, index) => index)
  for (let i = 1; i <= ref.length; i += 1) {
    const current = [i]
    for (let j = 1; j <= hyp.length; j += 1) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (ref[i - 1] === hyp[j - 1] ? 0 : 1))
    }
    previous = current
  }
  return ref.length === 0 ? 0 : previous[hyp.length]! / ref.length
}

export const readFixture = (file: string) => readFileSync(file)

/** For each segment, the index of the spoken turn it overlaps most (-1: none). */
export function turnsOfSegments(segments: { startMs: number; endMs: number }[], turns: { startMs: number; endMs: number }[]): number[] {
  return segments.map((segment) => {
    let best = -1
    let bestOverlap = 0
    turns.forEach((turn, index) => {
      const overlap = Math.min(segment.endMs, turn.endMs) - Math.max(segment.startMs, turn.startMs)
      if (overlap > bestOverlap) {
        best = index
        bestOverlap = overlap
      }
    })
    return best
  })
}
