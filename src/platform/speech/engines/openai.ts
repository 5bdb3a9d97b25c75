// Any OpenAI-compatible `/v1/audio/transcriptions` (OpenAI, Groq, speaches/faster-whisper,
// whisper.cpp's server): one multipart request per utterance, `response_format=verbose_json`,
// segment (and, where offered, word) timings back.
import { wavFile } from '../audio.ts'
import { SpeechEngineError, type Recognized, type RecognizedWord, type SpeechEngine } from './types.ts'

type VerboseJson = {
  text?: string
  language?: string
  segments?: { start: number; end: number; text: string; avg_logprob?: number }[]
  words?: { word: string; start: number; end: number }[]
}

export function openaiEngine(options: { url: string; apiKey?: string; model: string; timeoutMs?: number }): SpeechEngine {
  const endpoint = `${options.url.replace(/\/v1$/, '')}/v1/audio/transcriptions`
  async function one(samples: Int16Array, language: string): Promise<Recognized> {
    const form = new FormData()
    form.append('file', new Blob([wavFile(samples)], { type: 'audio/wav' }), 'utterance.wav')
    form.append('model', options.model)
    form.append('response_format', 'verbose_json')
    form.append('timestamp_granularities[]', 'segment')
    form.append('timestamp_granularities[]', 'word')
    form.append('language', language.split('-')[0]!.toLowerCase())
    let response: Response
    try {
      response = await fetch(endpoint, {
        method: 'POST', body: form, signal: AbortSignal.timeout(options.timeoutMs ?? 120_000),
        headers: options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {},
      })
    } catch (error) {
      throw new SpeechEngineError(`the transcription service at ${endpoint} could not be reached: ${(error as Error).message}`)
    }
    if (!response.ok) throw new SpeechEngineError(`the transcription service answered ${response.status}: ${(await response.text()).slice(0, 300)}`)
    const body = await response.json() as VerboseJson
    if (typeof body.text !== 'string') throw new SpeechEngineError('the transcription service answered without `text`')
    const words: RecognizedWord[] | undefined = body.words?.map((word) => ({
      word: word.word.trim(), startMs: Math.round(word.start * 1000), endMs: Math.round(word.end * 1000),
    }))
    const logprobs = body.segments?.map((segment) => segment.avg_logprob).filter((value): value is number => typeof value === 'number') ?? []
    return {
      text: body.text.trim(),
      ...(words?.length ? { words } : {}),
      ...(logprobs.length ? { confidence: Number(Math.exp(logprobs.reduce((a, b) => a + b, 0) / logprobs.length).toFixed(3)) } : {}),
      ...(body.language ? { language: body.language } : {}),
    }
  }
  return {
    name: 'openai',
    async transcribe(utterances, { language }) {
      const results: Recognized[] = []
      for (const utterance of utterances) results.push(await one(utterance, language))
      return results
    },
  }
}
