// A transcription server speaking OpenAI's protocol (POST /v1/audio/transcriptions, multipart,
// response_format=verbose_json with word timestamps) for tests of the OpenAI-compatible engine.
// It does not recognize anything: each test says what the audio holds (`script`: the turns with
// their times in the recording), and the server answers, for each uploaded utterance, the
// punctuated text of the turns it covers with word times spread over each turn.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

export type ScriptTurn = { text: string; startMs: number; endMs: number }

/** The WAV's length in ms (16 kHz mono 16-bit: what Confer sends). */
function wavMs(body: Buffer): number {
  const data = body.indexOf('data')
  if (data < 0) return 0
  return Math.round(body.readUInt32LE(data + 4) / 32)
}

export function transcriptionServer() {
  let script: ScriptTurn[] = []
  let offsetMs = 0
  const requests: { model: string; formats: string[] }[] = []
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = []
    for await (const chunk of request) chunks.push(chunk as Buffer)
    const body = Buffer.concat(chunks)
    if (request.url !== '/v1/audio/transcriptions' || request.method !== 'POST') {
      response.writeHead(404, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ error: { message: 'not found' } }))
      return
    }
    const field = (name: string) => [...body.toString('latin1').matchAll(new RegExp(`name="${name.replace(/[[\]]/g, '\\$&')}"\\r\\n\\r\\n([^\\r]*)`, 'g'))].map((match) => match[1]!)
    requests.push({ model: field('model')[0] ?? '', formats: field('timestamp_granularities[]') })
    const durationMs = wavMs(body.subarray(body.indexOf('RIFF')))
    // Utterances arrive in order: this one covers the script from offsetMs on.
    const from = offsetMs
    const to = offsetMs + durationMs
    offsetMs = to
    const words: { word: string; start: number; end: number }[] = []
    const texts: string[] = []
    for (const turn of script) {
      if (turn.endMs <= from || turn.startMs >= to) continue
      texts.push(turn.text)
      const tokens = turn.text.split(/\s+/)
      const letters = tokens.reduce((sum, token) => sum + token.length, 0)
      let at = turn.startMs
      for (const token of tokens) {
        const length = ((turn.endMs - turn.startMs) * token.length) / letters
        words.push({ word: token.replace(/[.,!?]/g, ''), start: (at - from) / 1000, end: (at + length - from) / 1000 })
        at += length
      }
    }
    response.writeHead(200, { 'content-type': 'application/json' })
    response.end(JSON.stringify({ text: texts.join(' '), language: 'english', duration: durationMs / 1000, words, segments: [{ start: 0, end: durationMs / 1000, text: texts.join(' '), avg_logprob: -0.2 }] }))
  })
  return {
    requests,
    /** what the recording says, and where; `skipMs`: audio before the first utterance the VAD cut away */
    setScript(turns: ScriptTurn[], skipMs = 0) {
      script = turns
      offsetMs = skipMs
    },
    start: () => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve)),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
    url: () => `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
  }
}
