import { describe, expect, it } from 'vitest'
import { validateCitations, validateResultCitations } from './citations.ts'
import type { ExtractedItem, ExtractionResult } from './types.ts'

const item = (key: string, sourceSegmentIds: string[]): ExtractedItem => ({
  key, kind: 'action', family: 'commitment', semanticType: 'task', title: key, summary: key, confidence: 0.8, sourceSegmentIds,
})

describe('validateCitations', () => {
  it('keeps items citing known segments and drops the rest', () => {
    const items = [item('a', ['s1']), item('b', ['s1', 'invented']), item('c', []), item('d', ['s2', 's1'])]
    expect(validateCitations(items, ['s1', 's2']).map((kept) => kept.key)).toEqual(['a', 'd'])
  })

  it('drops citations that are not strings (an LLM answering loosely)', () => {
    const loose = { ...item('a', ['s1']), sourceSegmentIds: [1 as unknown as string] }
    expect(validateCitations([loose], ['s1'])).toEqual([])
  })
})

describe('validateResultCitations', () => {
  it('drops the relations and clarify items that pointed at dropped items', () => {
    const result: ExtractionResult = {
      items: [item('a', ['s1']), item('b', ['ghost'])],
      relations: [
        { key: 'r1', type: 'duplicate-of', fromKey: 'b', toKey: 'a', confidence: 0.6 },
        { key: 'r2', type: 'depends-on', fromKey: 'a', toKey: 'a', confidence: 0.6 },
      ],
      clarifications: [
        { key: 'c1', kind: 'missing-owner', question: '?', itemKeys: ['b'], sourceSegmentIds: ['ghost'] },
        { key: 'c2', kind: 'missing-owner', question: '?', itemKeys: ['a'], sourceSegmentIds: ['s1', 'ghost'] },
      ],
    }
    expect(validateResultCitations(result, ['s1'])).toEqual({
      items: [result.items[0]],
      relations: [result.relations[1]],
      clarifications: [{ ...result.clarifications[1], sourceSegmentIds: ['s1'] }],
    })
  })
})
