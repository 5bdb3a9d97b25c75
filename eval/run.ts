// `npm run eval`: the extractive engine over the labelled meetings of test/fixtures/meetings,
// printing precision, recall and F1 per kind and overall. `npm run eval -- --verbose` also lists,
// per meeting, what was missed and what was produced without a label; `--split=held-out` limits
// the run to one split; `--meetings=id,id` also scores those meetings together (a batch that moved
// to development keeps a score of its own). `npm run eval -- --spoken` runs the spoken evaluation
// (eval/spoken.ts; `--split=` and `--meetings=` apply to it too).
// `--as-recognized`: the English meetings as a recognizer writes them (a segment per sentence, no commas).
import { summarize } from '../src/modules/extraction/engine/evaluation.ts'
import { evaluateExtractive, formatReport } from './extraction.ts'
import { loadMeetingFixtures } from '../test/fixtures/meetings.ts'
import { evaluateAnswers } from './answers.ts'
import { calibrateAnswers } from './answers-calibrate.ts'

// `--voices[=development]`: speaker naming instead (eval/voices/run.ts).
if (process.argv.some((argument) => argument === '--voices' || argument.startsWith('--voices='))) {
  await (await import('./voices/run.ts')).runVoiceEval(process.argv)
  process.exit(0)
}

// `--decisions-first-run=<commit>:<split>[,…] [--as-recognized | --spoken-replay=<dir>]`: a batch's
// first-run rules with and without the learned decision detector (eval/decisions-first-run.ts).
if (process.argv.some((argument) => argument.startsWith('--decisions-first-run='))) {
  await (await import('./decisions-first-run.ts')).runDecisionsFirstRun(process.argv)
  process.exit(0)
}

// `--decision-errors=<commit>:<split>,…`: each decision error of a first run, sorted into a cause (eval/decision-errors.ts).
if (process.argv.some((argument) => argument.startsWith('--decision-errors='))) {
  await (await import('./decision-errors.ts')).runDecisionErrors(process.argv)
  process.exit(0)
}

// `--spoken`: the spoken evaluation instead (eval/spoken.ts).
// `--spoken-replay=<dir>`: extraction re-read on transcripts a spoken run saved (eval/spoken-replay.ts).
if (process.argv.some((argument) => argument.startsWith('--spoken-replay='))) {
  await (await import('./spoken-replay.ts')).runSpokenReplay(process.argv)
  process.exit(0)
}

// `--decisions-loso [--as-recognized] [--threshold=]`: the learned decision detector, leave one split out;
// `--train-decisions`: train it on every seen split and write the shipped weights (eval/decisions.ts).
// `--keep-spoken-transcripts=<dir>`: copy a spoken run's saved seen transcripts into eval/spoken-transcripts (training data;
// pocketsphinx's), or with `--moonshine` into eval/spoken-transcripts-moonshine (the default engine's).
const keep = process.argv.find((argument) => argument.startsWith('--keep-spoken-transcripts='))?.slice('--keep-spoken-transcripts='.length)
if (keep) {
  const data = await import('./decision-data.ts')
  data.keepSpokenTranscripts(keep, process.argv.includes('--moonshine') ? data.moonshineTranscriptsDirectory : data.spokenTranscriptsDirectory)
  process.exit(0)
}
// `--train-decisions` retrains every shipped learned model: decisions, then outcomes and questions (eval/kinds.ts).
if (process.argv.includes('--decisions-loso') || process.argv.includes('--train-decisions')) {
  const decisions = await import('./decisions.ts')
  if (process.argv.includes('--train-decisions')) {
    decisions.trainShippedDecisions()
    ;(await import('./kinds.ts')).trainShippedKinds()
  } else decisions.runDecisionsLoso(process.argv)
  process.exit(0)
}
// `--kinds-loso [--kinds=outcome,question] [--as-recognized] [--threshold=]`: the learned outcome and
// question detectors, leave one split out (eval/kinds.ts).
if (process.argv.includes('--kinds-loso')) {
  ;(await import('./kinds.ts')).runKindsLoso(process.argv)
  process.exit(0)
}

if (process.argv.includes('--spoken')) {
  await (await import('./spoken.ts')).runSpokenEval(process.argv)
  process.exit(0)
}

const verbose = process.argv.includes('--verbose')
const only = process.argv.find((argument) => argument.startsWith('--split='))?.slice('--split='.length)
// `--answers`: the answer engine over the labelled questions instead (eval/answers.ts).
if (process.argv.includes('--answers')) {
  // --sentence-model=use-lite-en: with the learned English sentence model (ANSWERS_SENTENCE_MODEL); --calibrate: leave-one-split-out;
  // --learn [--write]: the learned ranker and gate, leave-one-split-out (eval/answers-learn.ts); --recall: where retrieval leaves the correct source (eval/answers-recall.ts).
  const model = process.argv.find((argument) => argument.startsWith('--sentence-model='))?.slice('--sentence-model='.length)
  const sentenceModel = model === 'use-lite-en' ? model : 'off'
  if (process.argv.includes('--learn')) await (await import('./answers-learn.ts')).learnAnswers({ sentenceModel, write: process.argv.includes('--write'), ...(only ? { only } : {}) })
  else if (process.argv.includes('--recall')) await (await import('./answers-recall.ts')).recallAnswers({ sentenceModel, ...(only ? { only } : {}) })
  else if (process.argv.includes('--calibrate')) await calibrateAnswers({ sentenceModel, ...(only ? { only } : {}) })
  else await evaluateAnswers({ verbose, sentenceModel, ...(only ? { only } : {}) })
  process.exit(0)
}
// `--as-recognized`: the English meetings in the form a recognizer writes (no commas, a segment per sentence).
// `--decisions=rules`: decisions by the rules alone, without the learned detector (eval/decisions.ts).
// `--kinds=rules`: outcomes and questions by the rules alone, without their learned detectors (eval/kinds.ts).
const rulesOnly = process.argv.includes('--decisions=rules')
const kindRules = process.argv.includes('--kinds=rules') ? { kinds: { outcome: 'rules' as const, question: 'rules' as const } } : {}
// A sealed split (not yet in SEEN_SPLITS) is scored only when named with `--split=`, so that it is run once, on purpose.
const { SEEN_SPLITS } = await import('./decision-data.ts')
const fixtures = loadMeetingFixtures().filter((fixture) => (only ? fixture.split === only : (SEEN_SPLITS as readonly string[]).includes(fixture.split)))
const { report, splits, meetings: all } = evaluateExtractive(fixtures, { recognized: process.argv.includes('--as-recognized'), ...(rulesOnly ? { decisions: 'rules' as const } : {}), ...kindRules })
const meetings = only ? all.filter(({ fixture }) => fixture.split === only) : all
if (verbose) {
  for (const { fixture, score } of meetings) {
    if (score.missed.length === 0 && score.spurious.length === 0) continue
    console.log(`\n${fixture.id}`)
    for (const label of score.missed) console.log(`  missed   ${label.kind.padEnd(9)} [${label.sourceSegmentIds.join(',')}] ${label.title}`)
    for (const item of score.spurious) console.log(`  spurious ${item.kind.padEnd(9)} [${item.sourceSegmentIds.join(',')}] ${item.title} (${item.confidence})`)
    for (const { expected, produced } of score.matches) {
      if (expected.kind !== 'action') continue
      const owner = (expected.ownerName ?? undefined) === produced.ownerName ? '' : ` owner ${produced.ownerName ?? '-'} ≠ ${expected.ownerName ?? '-'}`
      const due = (expected.dueDate ?? undefined) === produced.dueDate ? '' : ` due ${produced.dueDate ?? '-'} ≠ ${expected.dueDate ?? '-'}`
      if (owner || due) console.log(`  action   [${produced.sourceSegmentIds.join(',')}] ${produced.title}:${owner}${due}`)
    }
  }
  console.log('')
}
for (const { split, meetingCount, report: splitReport } of splits) {
  if (only && split !== only) continue
  console.log(formatReport(splitReport, `Extractive engine, ${split} split: ${meetingCount} labelled meetings (items at or above the quality gate)`), '\n')
}
if (!only) console.log(formatReport(report, `All ${all.length} labelled meetings`))
const picked = process.argv.find((argument) => argument.startsWith('--meetings='))?.slice('--meetings='.length).split(',')
if (picked) {
  const chosen = all.filter(({ fixture }) => picked.includes(fixture.id))
  console.log('\n' + formatReport(summarize(chosen.map(({ score }) => score)), `Meetings ${chosen.map(({ fixture }) => fixture.id).join(', ')}`))
}
