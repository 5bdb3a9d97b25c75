// Where does an item belong? TF-IDF cosine between the text an item cites and each project's
// name, objective, description and existing work (English stems and Chinese bigrams alike);
// the inbox when no project is close enough.
import { contentTokens, cosine, type TermVector } from './text.ts'

export type ProjectCandidate = { id: string; name: string; objective?: string; description?: string; existingWork?: string[] }
export type ProjectSuggestion = { projectId: string; score: number }
export type ProjectRanking = { route: 'project' | 'inbox'; preselectedProjectId?: string; suggestions: ProjectSuggestion[] }

/** Below this cosine the best project is a guess, and the item goes to the inbox. */
export const PROJECT_MATCH_THRESHOLD = 0.12
const MAX_SUGGESTIONS = 5
// A project's name says more about it than one line of its existing work.
const FIELD_WEIGHTS = { name: 3, objective: 2, description: 1, existingWork: 1 }

export function rankProjects(citedText: string, projects: ProjectCandidate[], options: { threshold?: number } = {}): ProjectRanking {
  const threshold = options.threshold ?? PROJECT_MATCH_THRESHOLD
  const documents = projects.map((project) => ({ id: project.id, counts: projectTerms(project) }))
  const documentFrequency = new Map<string, number>()
  for (const { counts } of documents) for (const term of counts.keys()) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1)
  const inverse = (term: string) => Math.log((documents.length + 1) / ((documentFrequency.get(term) ?? 0) + 1)) + 1
  const weigh = (counts: TermVector): TermVector => new Map([...counts].map(([term, count]) => [term, (1 + Math.log(count)) * inverse(term)]))

  const query = weigh(countTerms(contentTokens(citedText), 1))
  const suggestions = documents
    .map(({ id, counts }) => ({ projectId: id, score: Math.round(cosine(query, weigh(counts)) * 1000) / 1000 }))
    .filter((suggestion) => suggestion.score > 0)
    .sort((a, b) => b.score - a.score || a.projectId.localeCompare(b.projectId))
    .slice(0, MAX_SUGGESTIONS)
  const top = suggestions[0]
  if (!top || top.score < threshold) return { route: 'inbox', suggestions }
  return { route: 'project', preselectedProjectId: top.projectId, suggestions }
}

function projectTerms(project: ProjectCandidate): TermVector {
  const counts: TermVector = new Map()
  const add = (text: string | undefined, weight: number) => {
    if (!text) return
    for (const [term, count] of countTerms(contentTokens(text), weight)) counts.set(term, (counts.get(term) ?? 0) + count)
  }
  add(project.name, FIELD_WEIGHTS.name)
  add(project.objective, FIELD_WEIGHTS.objective)
  add(project.description, FIELD_WEIGHTS.description)
  for (const work of project.existingWork ?? []) add(work, FIELD_WEIGHTS.existingWork)
  return counts
}

function countTerms(tokens: string[], weight: number): TermVector {
  const counts: TermVector = new Map()
  for (const token of tokens) counts.set(token, (counts.get(token) ?? 0) + weight)
  return counts
}
