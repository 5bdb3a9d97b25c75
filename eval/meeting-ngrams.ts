// `npx node eval/meeting-ngrams.ts`: writes src/platform/speech/engines/meeting-ngrams.json, the
// in-domain bigrams and trigrams of meeting speech that the default engine's language model is
// interpolated with (docs/speech.md, "Meeting n-grams"). Source: the English text of the labelled
// training meetings (test/fixtures/training-meetings: not evaluation data) and MEETING_PHRASES.
// Each sentence is read as a recognizer would hear it (lower case, no punctuation, "<s> … </s>");
// a token the general model lacks or with a digit breaks the chain. Kept: n-grams seen at least
// MIN_COUNT times (general meeting language rather than one meeting's topic), each with
// log10 P_in(w | context) = log10((c(context w) − D) / c(context)) (absolute discounting).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { readTrieModel } from '../src/platform/speech/engines/language-model.ts'
import { MEETING_PHRASES } from '../src/platform/speech/vocabulary.ts'

const MIN_COUNT = Number(process.env.MIN_COUNT ?? 2)
const DISCOUNT = 0.5
const root = path.join(import.meta.dirname, '..')
const general = readTrieModel('/usr/share/pocketsphinx/model/en-us/en-us.lm.bin')

const sentences: string[][] = []
const directory = path.join(root, 'test/fixtures/training-meetings')
for (const file of readdirSync(directory).filter((name) => name.endsWith('.json')).sort()) {
  const meeting = JSON.parse(readFileSync(path.join(directory, file), 'utf8')) as { language: string; segments: { text: string; language?: string }[] }
  if (meeting.language !== 'en') continue
  for (const segment of meeting.segments) {
    if ((segment.language ?? 'en') !== 'en') continue
    for (const sentence of segment.text.split(/(?<=[.?!;:])\s+|\s+[—–]\s+/)) sentences.push(sentence.toLowerCase().replace(/[‘’]/g, "'").replace(/[^a-z0-9' -]+/g, ' ').replace(/-/g, ' ').split(/\s+/).map((token) => token.replace(/^'+|'+$/g, '')).filter(Boolean))
  }
}
for (const phrase of MEETING_PHRASES) sentences.push(phrase.split(/[\s-]+/))

const counts = new Map<string, number>()
const count = (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1)
for (const sentence of sentences) {
  // Runs of words the model knows, with the sentence marks where the sentence starts or ends.
  const tokens = ['<s>', ...sentence.map((token) => (/\d/.test(token) || !general.index.has(token) ? '' : token)), '</s>']
  for (let index = 0; index < tokens.length; index += 1) {
    for (let order = 1; order <= 3 && index - order + 1 >= 0; order += 1) {
      const gram = tokens.slice(index - order + 1, index + 1)
      if (gram.some((token) => !token)) break
      count(gram.join(' '))
    }
  }
}
const ngrams: Record<string, number> = {}
for (const [key, value] of [...counts].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
  const words = key.split(' ')
  if (words.length < 2 || value < MIN_COUNT) continue
  const context = counts.get(words.slice(0, -1).join(' '))!
  ngrams[key] = Number(Math.log10((value - DISCOUNT) / context).toFixed(3))
}
const file = path.join(root, 'src/platform/speech/engines/meeting-ngrams.json')
writeFileSync(file, `${JSON.stringify({ about: `written by eval/meeting-ngrams.ts from the English training meetings and MEETING_PHRASES: n-grams seen ≥ ${MIN_COUNT} times, log10 P(last word | the words before), absolute discount ${DISCOUNT}`, ngrams }, null, 0).replace(/,"/g, ',\n"')}\n`)
console.log(`${Object.keys(ngrams).length} n-grams from ${sentences.length} sentences → ${path.relative(root, file)}`)
