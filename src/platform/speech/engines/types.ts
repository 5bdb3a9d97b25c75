// The speech engine contract (DESIGN §6): 16 kHz mono utterances in, text (and word timings when
// the engine has them) out, one result per utterance in the same order.
export type RecognizedWord = { word: string; startMs: number; endMs: number; confidence?: number }

export type Recognized = {
  text: string
  /** times relative to the start of the utterance */
  words?: RecognizedWord[]
  confidence?: number
  language?: string
  /** word indexes where a new voice starts, when the engine found the turns itself (moonshine: from the audio) */
  turnStarts?: number[]
}

export type TranscribeOptions = {
  language: string
  /** words and phrases of the workspace and of meetings to bias recognition toward (engines that can) */
  vocabulary?: string[]
}

export type SpeechEngine = {
  name: 'openai' | 'whisper' | 'moonshine' | 'pocketsphinx'
  transcribe(utterances: Int16Array[], options: TranscribeOptions): Promise<Recognized[]>
  close?(): Promise<void>
}

export class SpeechEngineError extends Error {
  override name = 'SpeechEngineError'
}

export const joinWords = (words: RecognizedWord[]) => words.map((word) => word.word).join(' ')
