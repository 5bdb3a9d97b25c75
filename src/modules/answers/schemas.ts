// TypeBox schemas of POST /v1/search/answer (its own file so the web client can import their types).
import { Type } from 'typebox'

export const AnswerSource = Type.Object({
  kind: Type.Union(['segment', 'work-object', 'memory-entry', 'external-item', 'file'].map((kind) => Type.Literal(kind))),
  id: Type.String(),
  quote: Type.String({ description: 'The words of the source the sentence rests on.' }),
  sessionId: Type.Optional(Type.String({ description: 'segment, work-object: the session to open.' })),
  startMs: Type.Optional(Type.Number({ description: 'segment: where in the recording.' })),
  projectId: Type.Optional(Type.String({ description: 'memory-entry, external-item, file: the project whose memory holds it.' })),
  status: Type.Optional(Type.String({ description: 'memory-entry: current, superseded or in-conflict; work-object: proposed while it is an AI proposal nobody has accepted yet (absent once accepted or made by a person).' })),
  url: Type.Optional(Type.String({ description: 'external-item: where it lives in its tool.' })),
  title: Type.Optional(Type.String()),
  path: Type.Optional(Type.String({ description: 'file: path in the codebase.' })),
  line: Type.Optional(Type.Integer({ description: 'file: 1-based line.' })),
  speaker: Type.Optional(Type.String({ description: 'segment: who said it, as the session names the speaker now ("Speaker 2", "Dana Li").' })),
  sessionTitle: Type.Optional(Type.String({ description: 'segment, work-object: the title of the meeting it comes from.' })),
}, { $id: 'WorkspaceMemoryAnswerSource' })

export const SearchAnswer = Type.Object({
  query: Type.String(),
  status: Type.Union([Type.Literal('answered'), Type.Literal('no-evidence')]),
  answer: Type.String({ description: 'Empty with no-evidence. Every sentence is one of `sentences`.' }),
  sentences: Type.Array(Type.Object({ text: Type.String(), sourceIndexes: Type.Array(Type.Integer({ minimum: 0 }), { minItems: 1, description: 'Indexes into `sources`.' }) })),
  sources: Type.Array(Type.Ref('WorkspaceMemoryAnswerSource')),
  generatedBy: Type.Union([Type.Literal('grounded-ai'), Type.Literal('extractive')]),
  reason: Type.Optional(Type.Literal('language-mismatch', { description: 'no-evidence only: the question is in a language none of the workspace\'s meetings are in; the extractive engine does not translate.' })),
  notice: Type.Optional(Type.String({ description: 'With `reason`: what it means for the asker, in the question\'s language.' })),
})
