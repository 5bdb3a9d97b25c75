// Capture: the microphone (processing off, so speech recognition hears the room as it is),
// optionally mixed with system audio from a shared tab or screen, recorded by MediaRecorder in
// 1-second chunks that go straight into the durable upload queue.
import type { CaptureMode } from '../../lib/types.ts'
import { enqueue } from './chunk-queue.ts'

export const CHUNK_MS = 1000

export function canCaptureSystemAudio(): boolean {
  return typeof navigator.mediaDevices?.getDisplayMedia === 'function'
}

function recorderType(): string {
  for (const type of ['audio/webm;codecs=opus', 'audio/ogg;codecs=opus', 'audio/webm']) {
    if (typeof MediaRecorder !== 'undefined' && MediaRecorder.isTypeSupported(type)) return type
  }
  return ''
}

/** What could not be opened: the microphone, or the screen or tab whose audio was asked for. */
export class CaptureRefused extends Error {
  readonly what: 'microphone' | 'display'
  constructor(what: 'microphone' | 'display') {
    super(`${what} refused`)
    this.what = what
  }
}

export type Recording = {
  /** true when system audio (a shared screen's or tab's) is mixed in */
  systemAudio: boolean
  stop(): Promise<void>
  /** 0…1, the input's loudness now */
  level(): number
  recorded(): number
}

/** The opened inputs (the microphone, and a shared screen's or tab's audio when asked), not yet recording. */
export type Devices = {
  systemAudio: boolean
  stream: MediaStream
  tracks: MediaStreamTrack[]
  context: AudioContext
  analyser: AnalyserNode
  /** Releases the inputs (when no recording starts after all). */
  close(): void
}

/**
 * Opens the inputs first, so that a refused microphone or screen leaves no session behind (the
 * session is created only once they are open).
 */
export async function openDevices(mode: CaptureMode): Promise<Devices> {
  const microphone = await navigator.mediaDevices.getUserMedia({
    audio: { echoCancellation: false, noiseSuppression: false, autoGainControl: false, channelCount: 1 },
  }).catch(() => { throw new CaptureRefused('microphone') })
  let systemAudio = false
  const context = new AudioContext()
  void context.resume().catch(() => undefined)
  const mix = context.createMediaStreamDestination()
  const analyser = context.createAnalyser()
  analyser.fftSize = 1024
  const source = context.createMediaStreamSource(microphone)
  source.connect(analyser)
  const tracks: MediaStreamTrack[] = [...microphone.getTracks()]
  let stream: MediaStream = microphone
  if (mode === 'microphone-and-system-audio' && canCaptureSystemAudio()) {
    const display = await navigator.mediaDevices.getDisplayMedia({ audio: true, video: true }).catch(() => {
      for (const track of microphone.getTracks()) track.stop()
      void context.close()
      throw new CaptureRefused('display')
    })
    tracks.push(...display.getTracks())
    systemAudio = display.getAudioTracks().length > 0
    source.connect(mix)
    if (display.getAudioTracks().length > 0) context.createMediaStreamSource(new MediaStream(display.getAudioTracks())).connect(mix)
    stream = mix.stream
  }
  return {
    systemAudio, stream, tracks, context, analyser,
    close() {
      for (const track of tracks) track.stop()
      void context.close()
    },
  }
}

export function startRecording(sessionId: string, devices: Devices, onChunk: (count: number) => void): Recording {
  const { systemAudio, stream, tracks, context, analyser } = devices
  const type = recorderType()
  const recorder = new MediaRecorder(stream, type ? { mimeType: type } : undefined)
  const contentType = (recorder.mimeType || type || 'audio/webm').split(';')[0] === 'audio/ogg' ? 'audio/ogg' : 'audio/webm'
  let sequence = 0
  const writes: Promise<void>[] = []
  recorder.ondataavailable = (event) => {
    if (event.data.size === 0) return
    sequence += 1
    const chunk = { chunkId: `chk-${crypto.randomUUID()}`, sessionId, sequence, type: contentType, blob: event.data, createdAt: Date.now() + sequence / 1e6 }
    writes.push(enqueue(chunk))
    onChunk(sequence)
  }
  recorder.start(CHUNK_MS)

  const samples = new Float32Array(analyser.fftSize)
  return {
    systemAudio,
    level() {
      analyser.getFloatTimeDomainData(samples)
      let sum = 0
      for (const sample of samples) sum += sample * sample
      return Math.min(1, Math.sqrt(sum / samples.length) * 4)
    },
    recorded: () => sequence,
    async stop() {
      if (recorder.state !== 'inactive') {
        const stopped = new Promise((resolve) => recorder.addEventListener('stop', resolve, { once: true }))
        recorder.stop()
        await stopped
      }
      await Promise.all(writes)
      for (const track of tracks) track.stop()
      await context.close()
    },
  }
}
