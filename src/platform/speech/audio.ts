// Audio decoding: any accepted upload format to 16 kHz mono 16-bit PCM, the one format the
// voice activity detector, the pitch tracker and every engine take. ffmpeg (Debian) decodes
// WAV, WebM/Opus and Ogg/Opus|Vorbis and resamples; 16 kHz raw PCM needs no decoder at all.
import { spawn } from 'node:child_process'
import { SAMPLE_RATE } from './sample-rate.ts'

export { SAMPLE_RATE }

export type AudioFormat = { container: 'pcm'; rate: number; channels: number } | { container: 'wav' | 'webm' | 'ogg' }

export class DecodeError extends Error {
  override name = 'DecodeError'
}

/** Little-endian 16-bit samples of a buffer (copied: Buffers may be unaligned). */
export function pcmSamples(bytes: Uint8Array): Int16Array {
  const samples = new Int16Array(Math.floor(bytes.byteLength / 2))
  const view = new DataView(bytes.buffer, bytes.byteOffset, samples.length * 2)
  for (let index = 0; index < samples.length; index += 1) samples[index] = view.getInt16(index * 2, true)
  return samples
}

export async function decodeToPcm16k(ffmpegBin: string, bytes: Uint8Array, format: AudioFormat): Promise<Int16Array> {
  if (format.container === 'pcm' && format.rate === SAMPLE_RATE && format.channels === 1) return pcmSamples(bytes)
  const input = format.container === 'pcm' ? ['-f', 's16le', '-ar', String(format.rate), '-ac', String(format.channels)] : []
  const args = ['-hide_banner', '-loglevel', 'error', ...input, '-i', 'pipe:0', '-f', 's16le', '-ac', '1', '-ar', String(SAMPLE_RATE), 'pipe:1']
  return pcmSamples(await run(ffmpegBin, args, bytes))
}

function run(bin: string, args: string[], input: Uint8Array): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ['pipe', 'pipe', 'pipe'] })
    const out: Buffer[] = []
    let err = ''
    child.stdout.on('data', (data: Buffer) => out.push(data))
    child.stderr.on('data', (data: Buffer) => { err += String(data) })
    child.on('error', (error) => reject(new DecodeError(`${bin} could not start: ${error.message}`)))
    child.on('close', (code) => {
      if (code === 0) resolve(Buffer.concat(out))
      else reject(new DecodeError(`${bin} exited with ${code}: ${err.trim().slice(0, 500)}`))
    })
    child.stdin.on('error', () => {})
    child.stdin.end(input)
  })
}

/** A 16 kHz mono WAV file of the samples (what engines that take files get). */
export function wavFile(samples: Int16Array, rate = SAMPLE_RATE): Buffer {
  const data = Buffer.alloc(samples.length * 2)
  for (let index = 0; index < samples.length; index += 1) data.writeInt16LE(samples[index]!, index * 2)
  const header = Buffer.alloc(44)
  header.write('RIFF', 0)
  header.writeUInt32LE(36 + data.length, 4)
  header.write('WAVE', 8)
  header.write('fmt ', 12)
  header.writeUInt32LE(16, 16)
  header.writeUInt16LE(1, 20)
  header.writeUInt16LE(1, 22)
  header.writeUInt32LE(rate, 24)
  header.writeUInt32LE(rate * 2, 28)
  header.writeUInt16LE(2, 32)
  header.writeUInt16LE(16, 34)
  header.write('data', 36)
  header.writeUInt32LE(data.length, 40)
  return Buffer.concat([header, data])
}

/** The decoder's view of a stored chunk's content type (`audio/pcm;rate=16000`, `audio/webm;codecs=opus`, …). */
export function audioFormatOf(contentType: string): AudioFormat {
  const [type = '', ...parameters] = contentType.split(';').map((part) => part.trim())
  const parameter = (name: string) => parameters.find((part) => part.startsWith(`${name}=`))?.slice(name.length + 1)
  if (type === 'audio/pcm') return { container: 'pcm', rate: Number(parameter('rate') ?? SAMPLE_RATE), channels: Number(parameter('channels') ?? 1) }
  if (type === 'audio/webm') return { container: 'webm' }
  if (type === 'audio/ogg') return { container: 'ogg' }
  return { container: 'wav' }
}

/** Whether a chunk starts a new encoded stream (its own container header) or continues one. */
export function startsStream(format: AudioFormat, bytes: Uint8Array): boolean {
  if (format.container === 'webm') return bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3
  // An Ogg page with the beginning-of-stream flag.
  if (format.container === 'ogg') return bytes[0] === 0x4f && bytes[1] === 0x67 && bytes[2] === 0x67 && bytes[3] === 0x53 && (bytes[5]! & 0x02) !== 0
  return true
}

export const msOf = (samples: number) => Math.round((samples * 1000) / SAMPLE_RATE)
export const samplesOf = (ms: number) => Math.round((ms * SAMPLE_RATE) / 1000)
