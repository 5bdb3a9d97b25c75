import { extractiveEngine } from './src/modules/extraction/engine/index.ts'
const texts = [
  ['spk_1', "Okay, let's start with the launch plan."],
  ['spk_2', 'We decided to use Postgres for the event store.'],
  ['spk_1', 'Somebody needs to update the onboarding docs before the launch.'],
  ['spk_2', 'Priya, can you update the pricing page by Friday?'],
  ['spk_1', 'Sure, I will do it.'],
  ['spk_2', "Actually, let's go with Kafka instead for the event store."],
  ['spk_1', 'Once the pricing page is updated, Tom will send the launch email.'],
]
const r = await extractiveEngine.extract({ segments: texts.map(([s, t], i) => ({ id: 'seg_' + i, text: t, speakerId: s, startMs: i * 1000, endMs: i * 1000 + 900 })), meetingStartedAt: '2026-11-23T09:00:00Z' })
console.log(r.items.map(i => [i.kind, i.title, i.ownerName ?? i.ownerSpeakerId, i.confidence, i.sourceSegmentIds.join()]), r.clarifications.map(c => c.kind), r.relations.map(r => r.type))
