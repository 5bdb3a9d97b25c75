// The audio formats a chunk may carry, read from its Content-Type (RFC 9110 media type syntax),
// and a look at the bytes themselves: a WAV chunk must begin with its RIFF/WAVE header, and a
// chunk that is recognisably something else (an image, a document, an archive) is refused.
import { fileTypeFromBuffer } from 'file-type'
import { AppError, badRequest } from '../../platform/http/errors.ts'

export const AUDIO_CHUNK_MAX_BYTES = 5 * 1024 * 1024

/** Accepted media types; the aliases are what browsers and tools send for WAV. */
export const AUDIO_MEDIA_TYPES = ['audio/wav', 'audio/pcm', 'audio/webm', 'audio/ogg'] as const
const ALIASES: Record<string, (typeof AUDIO_MEDIA_TYPES)[number]> = { 'audio/wave': 'audio/wav', 'audio/x-wav': 'audio/wav', 'audio/vnd.wave': 'audio/wav' }
export const PARSED_MEDIA_TYPES = [...AUDIO_MEDIA_TYPES, ...Object.keys(ALIASES)]

const PCM_RATES = { min: 8000, max: 192_000 }

export type AudioFormat = {
  /** what is stored with the chunk, e.g. `audio/pcm;rate=16000` or `audio/webm;codecs=opus` */
  contentType: string
  /** bytes per PCM frame (16-bit little-endian samples × channels), for PCM only */
  frameBytes?: number
}

const unsupported = (detail: string) => new AppError('unsupported_media_type', detail)

export function parseAudioContentType(header: string | undefined): AudioFormat {
  const accepted = `Send audio/wav, audio/pcm;rate=<Hz>, audio/webm or audio/ogg.`
  if (!header) throw unsupported(`The chunk has no Content-Type. ${accepted}`)
  const [rawType = '', ...rawParameters] = header.split(';')
  const lowered = rawType.trim().toLowerCase()
  const mediaType = ALIASES[lowered] ?? lowered
  if (!(AUDIO_MEDIA_TYPES as readonly string[]).includes(mediaType)) throw unsupported(`${rawType.trim() || 'This content type'} is not accepted. ${accepted}`)
  const parameters = new Map<string, string>()
  for (const raw of rawParameters) {
    const separator = raw.indexOf('=')
    if (separator < 1) continue
    parameters.set(raw.slice(0, separator).trim().toLowerCase(), raw.slice(separator + 1).trim().replace(/^"(.*)"$/, '$1'))
  }
  if (mediaType !== 'audio/pcm') {
    const codecs = parameters.get('codecs')
    return { contentType: codecs && /^[\w.,+ -]{1,64}$/.test(codecs) ? `${mediaType};codecs=${codecs.replaceAll(' ', '')}` : mediaType }
  }
  const rate = Number(parameters.get('rate'))
  if (!parameters.has('rate') || !Number.isInteger(rate) || rate < PCM_RATES.min || rate > PCM_RATES.max) {
    throw unsupported(`audio/pcm needs its sample rate, an integer from ${PCM_RATES.min} to ${PCM_RATES.max}: audio/pcm;rate=16000.`)
  }
  const channels = parameters.has('channels') ? Number(parameters.get('channels')) : 1
  if (channels !== 1 && channels !== 2) throw unsupported('audio/pcm takes channels=1 (default) or channels=2.')
  return { contentType: `audio/pcm;rate=${rate}${channels === 2 ? ';channels=2' : ''}`, frameBytes: 2 * channels }
}

/** The chunk's bytes, or a 400/415 naming what is wrong with them. */
export function chunkBytes(body: unknown, format: AudioFormat): Uint8Array {
  if (!Buffer.isBuffer(body)) throw unsupported('Send the audio bytes themselves as the request body, with their audio content type.')
  if (body.byteLength === 0) throw badRequest('body', 'minLength', 'The audio chunk is empty.')
  if (format.frameBytes && body.byteLength % format.frameBytes !== 0) {
    throw badRequest('body', 'pcmFrames', `16-bit PCM with this channel count comes in frames of ${format.frameBytes} bytes; the chunk has ${body.byteLength}.`)
  }
  return new Uint8Array(body.buffer, body.byteOffset, body.byteLength)
}

/** Containers a WebM or Ogg chunk may be recognised as (a continuation chunk is recognised as nothing). */
const STREAM_MIME = /^(audio\/|video\/(webm|ogg|x-matroska)$|application\/ogg$)/

/** Refuses bytes that are not the audio their Content-Type claims (415), before they are stored. */
export async function assertAudioBytes(format: AudioFormat, data: Uint8Array) {
  if (format.frameBytes) return // raw PCM has no header to recognise
  const detected = await fileTypeFromBuffer(data).catch(() => undefined)
  const claimed = format.contentType.split(';')[0]!
  if (claimed === 'audio/wav') {
    if (detected?.ext === 'wav') return
    throw unsupported(`The chunk is not WAV audio: it does not begin with a RIFF/WAVE header${detected ? ` (it looks like ${detected.mime})` : ''}. ` +
      'Each audio/wav chunk is a whole WAV file; send headerless samples as audio/pcm;rate=<Hz>.')
  }
  if (detected && !STREAM_MIME.test(detected.mime)) {
    throw unsupported(`The chunk is not ${claimed} audio: it looks like ${detected.mime}.`)
  }
}
