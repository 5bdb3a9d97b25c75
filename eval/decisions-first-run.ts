// `npm run eval -- --decisions-first-run=<commit>:<split> [--as-recognized | --spoken-replay=<dir>]`:
// a sealed batch's first-run engine (the rules as they were at <commit>, before the batch was read)
// with and without the learned decision detector trained on every seen split but <split> — the
// honest measure of what the detector adds on meetings the rules have not seen (docs/extraction.md,
// ninth pass). The old tree is `git archive`d to a temporary folder, the detector's files copied in
// and `extractItems` given the `decisions` option; its own rules, classify.ts included, stay as they were.
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { copyFileSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { scoreMeeting, summarize } from '../src/modules/extraction/engine/evaluation.ts'
import { asRecognized } from '../src/modules/extraction/engine/testing.ts'
import type { ExtractionInput, ExtractionResult } from '../src/modules/extraction/engine/types.ts'
import type { MeetingFixture } from '../test/fixtures/meetings.ts'
import { seenFixtures, trainingConfig, trainOn, vetoOf } from './decisions.ts'

const ENGINE = 'src/modules/extraction/engine'
type Extract = (input: ExtractionInput, options: unknown) => ExtractionResult

export async function oldEngine(commit: string): Promise<Extract> {
  const root = execFileSync('git', ['rev-parse', '--show-toplevel'], { encoding: 'utf8' }).trim()
  // One folder per worktree and commit (several worktrees may measure at once); the detector's files are copied on every run.
  const dir = path.join(tmpdir(), `confer-first-run-${commit}-${createHash('sha256').update(root).digest('hex').slice(0, 8)}`)
  const fresh = !existsSync(dir)
  if (fresh) {
    mkdirSync(dir, { recursive: true })
    execFileSync('sh', ['-c', `git -C "${root}" archive "${commit}" src | tar -x -C "${dir}"`])
    symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'))
    copyFileSync(path.join(root, 'package.json'), path.join(dir, 'package.json'))
  }
  for (const file of ['decision-model.ts', 'learned-decisions.ts', 'learned-kinds.ts', 'decision-weights.json']) copyFileSync(path.join(root, ENGINE, file), path.join(dir, ENGINE, file))
  if (fresh) {
    // The deadline veto came from held-out-4's reading (eighth pass): an old tree does without it.
    const classify = path.join(dir, ENGINE, 'classify.ts')
    if (!readFileSync(classify, 'utf8').includes('isOnlyADeadline')) writeFileSync(classify, `${readFileSync(classify, 'utf8')}\nexport function isOnlyADeadline(_sentence: string): boolean { return false }\n`)
    const extractive = path.join(dir, ENGINE, 'extractive.ts')
    // A tree whose engine already takes the detector as an option (ninth pass on) is used as it is.
    if (readFileSync(extractive, 'utf8').includes('options: ExtractOptions')) return (await import(path.join(dir, ENGINE, 'extractive.ts'))).extractItems as Extract
    const lines = readFileSync(extractive, 'utf8').replace('export function extractItems(input: ExtractionInput): ExtractionResult {',
      "import { learnedDecisions } from './learned-decisions.ts'\nexport function extractItems(input: ExtractionInput, options: any = {}): ExtractionResult {").split('\n')
    const at = lines.findIndex((line) => line.includes('= assemble('))
    const turns = lines.some((line) => line.includes('const turnOf')) ? 'turnOf' : 'segments.map((_, index) => index)'
    lines.splice(at + 1, 0, `  if (options.decisions && options.decisions !== 'rules') drafts.push(...learnedDecisions(segments, ${turns}, people, drafts, options.decisions))`)
    writeFileSync(extractive, lines.join('\n'))
  }
  return (await import(path.join(dir, ENGINE, 'extractive.ts'))).extractItems as Extract
}

const overlapOf = (a: { startMs: number; endMs: number }, b: { startMs: number; endMs: number }) => Math.max(0, Math.min(a.endMs, b.endMs) - Math.max(a.startMs, b.startMs))

/** The input and the labelled segment each produced segment stands for: text, as recognized, or a saved spoken transcript. */
export function inputOf(fixture: MeetingFixture, form: { recognized: boolean; replay?: string }): { input: ExtractionInput; labelOf: (id: string) => string | undefined } | undefined {
  const typed: ExtractionInput = { segments: fixture.segments, ...(fixture.participants ? { participants: fixture.participants } : {}), meetingStartedAt: fixture.meetingStartedAt, timezone: fixture.timezone }
  if (!form.replay) {
    const recognized = form.recognized && fixture.language.startsWith('en')
    return { input: recognized ? asRecognized(typed) : typed, labelOf: (id) => id.replace(/\.\d+$/, '') }
  }
  const file = path.join(form.replay, `${fixture.id}.json`)
  if (!existsSync(file)) return undefined
  const saved = JSON.parse(readFileSync(file, 'utf8')) as { segments: (ExtractionInput['segments'][number])[]; spans: { id: string; startMs: number; endMs: number }[] }
  const labels = new Map(saved.segments.map((segment) => [segment.id, [...saved.spans].sort((a, b) => overlapOf(segment, b) - overlapOf(segment, a)).find((span) => overlapOf(segment, span) > 0)?.id]))
  const segments = saved.segments.map((segment) => ({ ...segment, language: 'en', ...(segment.speakerId ? { speakerLabel: `Speaker ${segment.speakerId.replace(/^spk_/, '')}` } : {}) }))
  return { input: { segments, participants: (fixture.participants ?? []).map((participant) => ({ name: participant.name, accountId: participant.name })), meetingStartedAt: fixture.meetingStartedAt, timezone: fixture.timezone }, labelOf: (id) => labels.get(id) }
}

type Form = { recognized: boolean; replay?: string }
const formName = (form: Form) => (form.replay ? 'spoken replay' : form.recognized ? 'as recognized' : 'text')

/**
 * `--spoken-replay=<dir>` may hold `{split}` (one folder per batch); `--all-forms`: text, as
 * recognized and the spoken replay (where saved) with the same model, and the mean of each form.
 */
export async function runDecisionsFirstRun(argv: string[]): Promise<void> {
  const pairs = argv.find((argument) => argument.startsWith('--decisions-first-run='))!.slice('--decisions-first-run='.length).split(',')
  const replay = argv.find((argument) => argument.startsWith('--spoken-replay='))?.slice('--spoken-replay='.length)
  const fixtures = seenFixtures()
  const config = trainingConfig(argv)
  // `--thresholds=0.5,0.6`: the detector at each threshold (one training per batch).
  const thresholds = argv.find((argument) => argument.startsWith('--thresholds='))?.slice('--thresholds='.length).split(',').map(Number)
  console.log(`training: ${JSON.stringify(config)}`)
  const means = new Map<string, number[][]>()
  for (const pair of pairs) {
    const [commit, split] = pair.split(':') as [string, string]
    const extract = await oldEngine(commit)
    const trained = trainOn(fixtures, config, [split])
    const models = (thresholds ?? [trained.threshold]).map((threshold) => ({ ...trained, threshold }))
    const dir = replay?.replace('{split}', split)
    const forms: Form[] = argv.includes('--all-forms')
      ? [{ recognized: false }, { recognized: true }, ...(dir && existsSync(dir) ? [{ recognized: false, replay: dir }] : [])]
      : [{ recognized: argv.includes('--as-recognized'), ...(dir ? { replay: dir } : {}) }]
    for (const form of forms) {
      for (const model of models) {
        const row: number[] = []
        const name = `${formName(form)}${thresholds ? ` @${model.threshold}` : ''}`
        for (const decisions of ['rules', { model, mode: 'both', ...vetoOf(argv) }] as const) {
          const scores = fixtures.filter((fixture) => fixture.split === split).flatMap((fixture) => {
            const read = inputOf(fixture, form)
            if (!read) return []
            const items = extract(read.input, { decisions }).items.map((item) => ({ ...item, sourceSegmentIds: [...new Set(item.sourceSegmentIds.map(read.labelOf).filter((id): id is string => id !== undefined))] }))
            return [scoreMeeting(fixture.expected, items)]
          })
          const report = summarize(scores)
          const { f1, precision, recall } = report.byKind.decision
          row.push(f1, report.byKind.action.f1, report.overall.f1)
          console.log(`${split} at ${commit}, ${name}, ${decisions === 'rules' ? 'rules           ' : 'rules + learned '} decisions ${f1.toFixed(3)} (P ${(precision * 100).toFixed(0)}% R ${(recall * 100).toFixed(0)}%)  actions ${report.byKind.action.f1.toFixed(3)}  overall ${report.overall.f1.toFixed(3)}  (${scores.length} meetings)`)
        }
        // A batch without saved speech has no spoken row (it would count as 0 in the mean).
        if (row[0] !== 0 || row[3] !== 0 || row[2] !== 0) means.set(name, [...(means.get(name) ?? []), row])
      }
    }
  }
  for (const [name, rows] of means) {
    const mean = (column: number) => (rows.reduce((sum, row) => sum + row[column]!, 0) / rows.length).toFixed(3)
    console.log(`mean ${name} (${rows.length} batches): decisions ${mean(0)} → ${mean(3)}  actions ${mean(1)} → ${mean(4)}  overall ${mean(2)} → ${mean(5)}`)
  }
}
