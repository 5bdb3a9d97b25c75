import { describe, expect, it } from 'vitest'
import type { WorkObjectRow } from './repo.ts'
import { blocksOf, headlineOf, languageOf } from './takeover-blocks.ts'

const object = (id: string, kind: string, title: string, extra: Partial<WorkObjectRow> = {}) => ({
  id, kind, title, owner_account_id: null, owner_hint: null, due_date: null, stage: 'captured', responsibility_state: 'todo',
  proposal_state: 'pending', source_segment_ids: '["seg_1"]', ...extra,
}) as unknown as WorkObjectRow

describe('takeover blocks', () => {
  it('groups the work by kind in the meeting\'s language, with owners, due dates and open clarify items', () => {
    const objects = [
      object('wo_1', 'action', '更新定价页面', { owner_account_id: 'acc_1', due_date: '2026-11-27', proposal_state: 'accepted' }),
      object('wo_2', 'action', '写发布说明', { owner_hint: '李雷' }),
      object('wo_3', 'action', '检查监控告警'),
      object('wo_4', 'decision', '先给十个客户发布测试版'),
    ]
    const language = languageOf(objects.map((row) => row.title))
    expect(language).toBe('zh')
    const blocks = blocksOf({ objects, clarifications: [], names: new Map([['acc_1', '王芳']]) }, language)
    expect(blocks.map((block) => [block.type, block.title])).toEqual([['actions', '行动项'], ['decisions', '决定']])
    expect(blocks[0]!.items[0]).toEqual({ text: '更新定价页面', workObjectId: 'wo_1', ownerId: 'acc_1', ownerName: '王芳', dueDate: '2026-11-27', stage: 'captured', responsibility: 'todo', sourceSegmentIds: ['seg_1'] })
    expect(blocks[0]!.items[1]).toMatchObject({ ownerName: '李雷', proposed: true })
    expect(headlineOf(blocks, language)).toBe('3 项行动（1 项无负责人），1 项决定。')
  })

  it('writes an English headline and lists only clarify items still open', () => {
    const objects = [object('wo_1', 'action', 'Renew the certificate'), object('wo_2', 'question', 'Who approves the budget?')]
    const clarifications = [
      { id: 'clr_1', status: 'open', question: 'Who will own “Renew the certificate”?', source_segment_ids: '["seg_2"]' },
      { id: 'clr_2', status: 'dismissed', question: 'Old', source_segment_ids: '["seg_3"]' },
    ] as never
    const blocks = blocksOf({ objects, clarifications, names: new Map() }, languageOf(['Renew the certificate']))
    expect(blocks.map((block) => block.type)).toEqual(['actions', 'open-questions', 'clarifications'])
    expect(blocks[2]!.items).toEqual([{ text: 'Who will own “Renew the certificate”?', clarificationId: 'clr_1', sourceSegmentIds: ['seg_2'] }])
    expect(headlineOf(blocks, 'en')).toBe('1 action (1 without an owner), 1 open question, 1 to clarify.')
  })
})
