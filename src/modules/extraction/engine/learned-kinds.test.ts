import { describe, expect, it } from 'vitest'
import type { DecisionModel } from './decision-model.ts'
import { extractItems } from './extractive.ts'
import { SHIPPED_KINDS, shippedKindModels, type OtherLearnedKind } from './kind-models.ts'
import { meeting } from './testing.ts'
import { DEFAULT_QUALITY_GATE } from './types.ts'

const NO_DECISIONS: DecisionModel = { bias: -20, threshold: 0.5, weights: {} }
const itemsOf = (kind: OtherLearnedKind, lines: [string, string][], model: DecisionModel) =>
  extractItems(meeting(lines), { decisions: { model: NO_DECISIONS, mode: 'both' }, kinds: { [kind]: { model, mode: 'both' } } }).items.filter((item) => item.kind === kind)
const visible = (items: { confidence: number; sourceSegmentIds: string[] }[]) => items.filter((item) => item.confidence >= DEFAULT_QUALITY_GATE).map((item) => item.sourceSegmentIds)

describe('the learned outcome and question detectors', () => {
  it('adds an outcome the rules did not find, keyed where it was said, never from a question', () => {
    const model: DecisionModel = { bias: -4, threshold: 0.5, weights: { 'w:turnout': 8 } }
    const found = itemsOf('outcome', [['ana', 'Was turnout any good?'], ['ben', 'Turnout was about forty people.'], ['ana', 'Nice.']], model)
    expect(visible(found)).toEqual([['s2']])
    expect(found.find((item) => item.sourceSegmentIds[0] === 's2')!.semanticType).toBe('metric')
  })

  it('leaves a sentence the rules read as another kind, and one next to a rule outcome, below the gate', () => {
    const model: DecisionModel = { bias: -4, threshold: 0.5, weights: { 'w:dashboard': 8 } }
    // The rules read the first line as work taken: the detector does not add it as a result.
    const taken = itemsOf('outcome', [['ana', "I'll fix the dashboard by Friday."], ['ben', 'Thanks.']], model)
    expect(visible(taken)).toEqual([])
    const ruled = itemsOf('outcome', [['ana', 'We shipped the new dashboard last week.'], ['ben', 'The dashboard, yes.']], model)
    expect(visible(ruled)).toHaveLength(1)
  })

  it('adds an open question or risk, and an answered one sinks below the gate with the same key', () => {
    const model: DecisionModel = { bias: -4, threshold: 0.5, weights: { 'w:insurance': 8 } }
    const lines: [string, string][] = [['ana', 'Not sure the insurance covers the minibus.'], ['ben', 'Good point, nobody knows yet.']]
    const open = itemsOf('question', lines, model)
    expect(visible(open)).toEqual([['s1']])
    expect(open[0]!.semanticType).toBe('open-question')
    const asked = itemsOf('question', [['ana', 'Does the insurance cover the minibus'], ['ben', 'Yes it does, I checked.']], model)
    const prefix = itemsOf('question', [['ana', 'Does the insurance cover the minibus']], model)
    expect(visible(prefix)).toEqual([['s1']])
    expect(asked.map((item) => item.key)).toContain(prefix[0]!.key)
    expect(visible(asked)).toEqual([])
  })

  it('keeps an item found on a prefix on every longer transcript', () => {
    const model: DecisionModel = { bias: -4, threshold: 0.5, weights: { 'w:refunds': 3, 'a:wow': 3 } }
    const lines: [string, string][] = [['ana', 'Refunds dropped a lot in March.'], ['ben', 'Wow.'], ['ana', 'Anyway.']]
    expect(itemsOf('outcome', lines.slice(0, 1), model)).toEqual([])
    const shown = itemsOf('outcome', lines.slice(0, 2), model)
    expect(visible(shown)).toEqual([['s1']])
    expect(itemsOf('outcome', lines, model).map((item) => item.key)).toContain(shown[0]!.key)
  })

  it('ships a model per kind; the engine runs it only for the kinds in SHIPPED_KINDS', () => {
    for (const kind of ['outcome', 'question'] as const) {
      expect(shippedKindModels[kind].threshold).toBeGreaterThan(0)
      expect(shippedKindModels[kind].threshold).toBeLessThan(1)
      expect(Object.keys(shippedKindModels[kind].weights).length).toBeGreaterThan(500)
    }
    const lines: [string, string][] = [['ana', 'Turnout was about forty people.']]
    const byDefault = extractItems(meeting(lines)).items.filter((item) => item.key.length > 0 && !SHIPPED_KINDS.includes(item.kind as OtherLearnedKind))
    const rulesOnly = extractItems(meeting(lines), { kinds: { outcome: 'rules', question: 'rules' } }).items.filter((item) => !SHIPPED_KINDS.includes(item.kind as OtherLearnedKind))
    expect(byDefault).toEqual(rulesOnly)
  })
})
