import { describe, expect, it } from 'vitest'
import { AppError } from '../../platform/http/errors.ts'
import { chunkBytes, parseAudioContentType } from './content-type.ts'
import { canArchive, canMoveSession, canUploadAudio } from './policy.ts'

describe('session states', () => {
  it('move recording → processing → ready | failed and back from failed to processing (retry), and nowhere else', () => {
    expect(canMoveSession('recording', 'processing')).toBe(true)
    expect(canMoveSession('processing', 'ready')).toBe(true)
    expect(canMoveSession('processing', 'failed')).toBe(true)
    expect(canMoveSession('recording', 'ready')).toBe(false)
    expect(canMoveSession('processing', 'recording')).toBe(false)
    expect(canMoveSession('ready', 'failed')).toBe(false)
    expect(canMoveSession('failed', 'processing')).toBe(true)
    expect(canMoveSession('failed', 'ready')).toBe(false)
  })

  it('take audio only from the recording account, and archive only once not recording', () => {
    expect(canUploadAudio('acc_1', { account_id: 'acc_1' })).toBe(true)
    expect(canUploadAudio('acc_2', { account_id: 'acc_1' })).toBe(false)
    expect(canArchive('recording')).toBe(false)
    expect(canArchive('ready')).toBe(true)
  })
})

describe('audio content types', () => {
  const refused = (header: string | undefined) => {
    try {
      parseAudioContentType(header)
    } catch (error) {
      expect(error).toBeInstanceOf(AppError)
      return (error as AppError).code
    }
    throw new Error(`${header} was accepted`)
  }

  it.each([
    ['audio/wav', 'audio/wav'], ['AUDIO/WAV', 'audio/wav'], ['audio/wave', 'audio/wav'], ['audio/ogg;codecs=opus', 'audio/ogg;codecs=opus'],
    ['audio/webm; codecs="opus"', 'audio/webm;codecs=opus'], ['audio/pcm;rate=16000', 'audio/pcm;rate=16000'],
    ['audio/pcm; rate="44100"; channels=2', 'audio/pcm;rate=44100;channels=2'], ['audio/pcm;channels=1;rate=8000', 'audio/pcm;rate=8000'],
  ])('accepts %s as %s', (header, stored) => {
    expect(parseAudioContentType(header).contentType).toBe(stored)
  })

  it.each([undefined, '', 'audio/mpeg', 'video/webm', 'audio/pcm', 'audio/pcm;rate=abc', 'audio/pcm;rate=7999', 'audio/pcm;rate=16000.5',
    'audio/pcm;rate=16000;channels=3'])('refuses %s with unsupported_media_type', (header) => {
    expect(refused(header)).toBe('unsupported_media_type')
  })

  it('wants whole 16-bit PCM frames and a non-empty body', () => {
    const stereo = parseAudioContentType('audio/pcm;rate=16000;channels=2')
    expect(chunkBytes(Buffer.alloc(8), stereo).byteLength).toBe(8)
    expect(() => chunkBytes(Buffer.alloc(6), stereo)).toThrow(/frames of 4 bytes/)
    expect(() => chunkBytes(Buffer.alloc(0), parseAudioContentType('audio/ogg'))).toThrow(/empty/)
    expect(() => chunkBytes({ not: 'bytes' }, parseAudioContentType('audio/ogg'))).toThrow(AppError)
  })
})
