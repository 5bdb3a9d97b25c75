import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { encode, hasFfmpeg, hasFlite, hasPocketsphinx, speak, synthesizeMeeting, wordErrorRate } from '../../../test/speech.ts'
import { audioFormatOf, decodeToPcm16k, pcmSamples, startsStream, wavFile } from './audio.ts'
import { openaiEngine } from './engines/openai.ts'
import { parseCtm, parseWords, pocketsphinxEngine } from './engines/pocketsphinx.ts'
import { whisperEngine } from './engines/whisper.ts'
import { medianPitch } from './pitch.ts'
import { assignSpeaker, assignSpeakerByVoice } from './speakers.ts'
import { detectUtterances } from './vad.ts'

const speech = hasFlite && hasFfmpeg

describe('decoding to 16 kHz mono', () => {
  it.skipIf(!speech)('decodes WAV, WebM/Opus, Ogg/Opus and 8 kHz PCM to the same length of audio', async () => {
    const pcm = speak({ voice: 'slt', text: 'Decoding test.' })
    const seconds = pcm.length / 32_000
    for (const format of ['wav', 'webm', 'ogg'] as const) {
      const decoded = await decodeToPcm16k('ffmpeg', encode(pcm, format), audioFormatOf(`audio/${format}`))
      expect(Math.abs(decoded.length / 16_000 - seconds), format).toBeLessThan(0.1)
    }
    const eightKhz = pcmSamples(pcm).filter((_, index) => index % 2 === 0)
    const bytes = Buffer.from(eightKhz.buffer)
    const upsampled = await decodeToPcm16k('ffmpeg', bytes, audioFormatOf('audio/pcm;rate=8000'))
    expect(Math.abs(upsampled.length - pcm.length / 2)).toBeLessThan(100)
  })

  it('passes 16 kHz mono PCM through untouched and writes WAV headers', async () => {
    const samples = new Int16Array([1, -2, 300, -32768, 32767])
    expect([...await decodeToPcm16k('ffmpeg', Buffer.from(samples.buffer), audioFormatOf('audio/pcm;rate=16000'))]).toEqual([...samples])
    const wav = wavFile(samples)
    expect(wav.subarray(0, 4).toString()).toBe('RIFF')
    expect(wav.readUInt32LE(24)).toBe(16_000)
    expect([...pcmSamples(wav.subarray(44))]).toEqual([...samples])
  })

  it.skipIf(!speech)('tells a WebM or Ogg stream start from its continuation', () => {
    const webm = encode(Buffer.alloc(32_000), 'webm')
    const ogg = encode(Buffer.alloc(32_000), 'ogg')
    expect(startsStream({ container: 'webm' }, webm)).toBe(true)
    expect(startsStream({ container: 'webm' }, webm.subarray(200))).toBe(false)
    expect(startsStream({ container: 'ogg' }, ogg)).toBe(true)
    expect(startsStream({ container: 'ogg' }, ogg.subarray(ogg.indexOf('OggS', 100)))).toBe(false)
  })

  it('answers a clear error for undecodable bytes', async () => {
    await expect(decodeToPcm16k('ffmpeg', Buffer.from('not audio at all'), { container: 'webm' })).rejects.toThrow(/ffmpeg/)
  })
})

describe('voice activity and speakers', () => {
  it.skipIf(!speech)('finds each turn of a synthesized meeting within 0.3 s, and nothing in silence', async () => {
    const { pcm, turns } = synthesizeMeeting([
      { voice: 'slt', text: 'First turn of the meeting.' }, { voice: 'rms', text: 'The second one.' }, { voice: 'slt', text: 'And a third.' },
    ])
    const utterances = await detectUtterances(pcmSamples(pcm))
    expect(utterances).toHaveLength(3)
    utterances.forEach((utterance, index) => expect(Math.abs(utterance.startSample / 16 - turns[index]!.startMs)).toBeLessThan(300))
    expect(await detectUtterances(new Int16Array(16_000 * 3))).toEqual([])
  })

  it.skipIf(!speech)('separates two voices by pitch', () => {
    const high = medianPitch(pcmSamples(speak({ voice: 'slt', text: 'A higher voice speaks here.' })))!
    const low = medianPitch(pcmSamples(speak({ voice: 'rms', text: 'A lower voice speaks here.' })))!
    expect(high).toBeGreaterThan(low * 1.3)
    const first = assignSpeaker([], high)
    const second = assignSpeaker([{ speakerId: first.speakerId, pitchHz: high }], low)
    expect([first, second].map((speaker) => [speaker.speakerId, speaker.isNew])).toEqual([['spk_1', true], ['spk_2', true]])
    expect(assignSpeaker([{ speakerId: 'spk_1', pitchHz: high }, { speakerId: 'spk_2', pitchHz: low }], high * 1.05).speakerId).toBe('spk_1')
    expect(assignSpeaker([{ speakerId: 'spk_1', pitchHz: high }], undefined)).toMatchObject({ speakerId: 'spk_1', isNew: false })
  })

  it('keeps apart voices with alike spectra a few semitones apart, but not one voice at its own pitch', () => {
    // Two embeddings at cosine 0.76 (flite rms and awb measure 0.69–0.77 apart, 0.94+ within one voice).
    const known = [{ speakerId: 'spk_1', pitchHz: 101, embedding: [1, 0], weight: 3 }]
    const alike = [0.76, Math.sqrt(1 - 0.76 ** 2)]
    expect(assignSpeakerByVoice(known, alike, 0.6, 126)).toMatchObject({ speakerId: 'spk_2', isNew: true })
    expect(assignSpeakerByVoice(known, alike, 0.6, 103)).toMatchObject({ speakerId: 'spk_1', isNew: false })
  })
})

describe('engines', () => {
  it('parses pocketsphinx word lines, dropping fillers and alternate markers', () => {
    const words = parseWords('let us ship\n<s> 0.000 0.200 0.99\nlet 0.210 0.440 0.97\nfriday(2) 1.760 2.420 0.99\n<sil> 2.43 2.56 0.8\n[NOISE] 2.6 2.7 0.5\n')
    expect(words).toEqual([
      { word: 'let', startMs: 210, endMs: 440, confidence: 0.97 },
      { word: 'friday', startMs: 1760, endMs: 2420, confidence: 0.99 },
    ])
  })

  it('parses pocketsphinx_batch CTM lines per utterance, dropping fillers and alternate markers', () => {
    const words = parseCtm('u0 1 0.09 0.55 morning 0.600\nu0 1 0.70 0.10 <sil> 0.9\nu1 1 0.08 0.44 sure(2) 0.965\nu1 1 0.60 0.20 [NOISE] 0.5\n')
    expect(words.get('u0')).toEqual([{ word: 'morning', startMs: 90, endMs: 640, confidence: 0.6 }])
    expect(words.get('u1')).toEqual([{ word: 'sure', startMs: 80, endMs: 520, confidence: 0.965 }])
  })

  it.skipIf(!(speech && hasPocketsphinx)).each([['continuous', undefined], ['batch', 'pocketsphinx_batch']])('pocketsphinx (%s) transcribes a batch of utterances, each with its own words and times', async (_mode, batchBin) => {
    const texts = ['Good morning everyone.', 'The new version is ready.']
    const utterances = texts.map((text, index) => pcmSamples(speak({ voice: index === 0 ? 'slt' : 'rms', text })))
    const results = await pocketsphinxEngine('pocketsphinx_continuous', batchBin).transcribe(utterances, { language: 'en' })
    expect(results).toHaveLength(2)
    // Over the batch (a three-word utterance makes one misheard word 33 %): one pass
    // (-fwdflat no) hears "good morning" as "the morning" for slt.
    expect(wordErrorRate(texts.join(' '), results.map((result) => result.text).join(' '))).toBeLessThanOrEqual(0.3)
    // Each utterance gets its own words (a three-word one may lose two: batch CMN over 1.5 s heard
    // "good morning" as "the mining" for slt).
    expect(results[0]!.text).toMatch(/\beveryone\b/)
    expect(results[1]!.text).toMatch(/\bversion is ready\b/)
    results.forEach((result) => expect(result.words![0]!.startMs).toBeLessThan(1000))
  })

  it('speaks the OpenAI transcription protocol: multipart WAV, verbose_json, bearer key', async () => {
    const seen: { fields: string; auth?: string; path?: string }[] = []
    const server = createServer(async (request: IncomingMessage, response) => {
      let body = ''
      for await (const chunk of request) body += chunk.toString('latin1')
      seen.push({ fields: body, auth: request.headers.authorization, path: request.url })
      if (seen.length === 3) {
        response.writeHead(429, { 'content-type': 'application/json' }).end('{"error":{"message":"slow down"}}')
        return
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({
        task: 'transcribe', language: 'english', duration: 1.5, text: ` utterance ${seen.length}`,
        segments: [{ id: 0, start: 0, end: 1.5, text: ` utterance ${seen.length}`, avg_logprob: -0.1 }],
        words: [{ word: 'utterance', start: 0.1, end: 0.7 }, { word: String(seen.length), start: 0.8, end: 1.2 }],
      }))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    try {
      const engine = openaiEngine({ url, apiKey: 'sk-test', model: 'whisper-1' })
      const results = await engine.transcribe([new Int16Array(16_000), new Int16Array(8000)], { language: 'en-US' })
      expect(results.map((result) => result.text)).toEqual(['utterance 1', 'utterance 2'])
      expect(results[0]).toMatchObject({ words: [{ word: 'utterance', startMs: 100, endMs: 700 }, { word: '1', startMs: 800, endMs: 1200 }], language: 'english' })
      expect(results[0]!.confidence).toBeCloseTo(Math.exp(-0.1), 3)
      expect(seen[0]).toMatchObject({ auth: 'Bearer sk-test', path: '/v1/audio/transcriptions' })
      for (const field of ['name="model"', 'whisper-1', 'name="response_format"', 'verbose_json', 'name="language"', 'RIFF', 'filename="utterance.wav"']) {
        expect(seen[0]!.fields).toContain(field)
      }
      expect(seen[0]!.fields).toMatch(/name="language"\r\n\r\nen\r\n/)
      await expect(engine.transcribe([new Int16Array(100)], { language: 'en' })).rejects.toThrow(/429/)
    } finally {
      server.close()
    }
  })

  it('refuses a whisper model path that does not exist, or a binding that cannot load, with what to do', async () => {
    await expect(whisperEngine('/nonexistent/ggml-base.en.bin')).rejects.toThrow(/no model file/)
    await expect(whisperEngine(import.meta.filename, async () => { throw new Error('Cannot find package') })).rejects.toThrow(/npm install @fugood\/whisper.node/)
  })
})
