// Extraction engine: transcript segments → proposed work items (actions, decisions, questions,
// outcomes, references) with owners, due dates and cited segments, plus clarify items and
// relations; and project ranking for where an item belongs. Pure code: no database, no network.
export { extractiveEngine, extractItems } from './extractive.ts'
export { validateCitations, validateResultCitations } from './citations.ts'
export { rankProjects, type ProjectCandidate, type ProjectRanking } from './rank-projects.ts'
export * from './types.ts'
