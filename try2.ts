import { extractiveEngine } from './src/modules/extraction/engine/index.ts'
for (const t of ['Once the pricing page is updated, Tom will send the launch email.', 'Tom will send the launch email once the pricing page is updated.', 'After the review, Tom will send the launch email.', 'Tom will send the launch email.']) {
const r = await extractiveEngine.extract({ segments: [{ id: 's0', text: 'Okay.', speakerId: 'spk_1', startMs: 0, endMs: 900 }, { id: 's1', text: t, speakerId: 'spk_2', startMs: 1000, endMs: 1900 }], meetingStartedAt: '2026-11-23T09:00:00Z' })
console.log(t, '=>', r.items.map(i => [i.kind, i.title, i.ownerName, i.confidence]))
}
