import { describe, expect, it } from 'vitest'
import { rankProjects, type ProjectCandidate } from './rank-projects.ts'

const projects: ProjectCandidate[] = [
  { id: 'prj_billing', name: 'Billing platform', objective: 'Invoices, payments and refunds', existingWork: ['Migrate invoice PDF rendering', 'Refund API'] },
  { id: 'prj_mobile', name: 'Mobile app', objective: 'Offline mode for iOS and Android', description: 'Task list and task detail screens' },
  { id: 'prj_search', name: '搜索体验', objective: '搜索结果页改版，提升点击率', existingWork: ['热门搜索推荐'] },
]

describe('rankProjects', () => {
  it('routes text to the project whose words it shares', () => {
    const ranking = rankProjects('Priya will fix the invoice PDF rendering for refunds by Friday', projects)
    expect(ranking.route).toBe('project')
    expect(ranking.preselectedProjectId).toBe('prj_billing')
    expect(ranking.suggestions[0]!.projectId).toBe('prj_billing')
  })

  it('ranks Chinese text by character bigrams', () => {
    const ranking = rankProjects('搜索结果页的筛选栏放到左侧，热门搜索用缓存', projects)
    expect(ranking).toMatchObject({ route: 'project', preselectedProjectId: 'prj_search' })
  })

  it('orders every matching project by score', () => {
    const { suggestions } = rankProjects('offline mode for the mobile task list, and the refund screen', projects)
    expect(suggestions.map((suggestion) => suggestion.projectId)).toEqual(['prj_mobile', 'prj_billing'])
    expect(suggestions[0]!.score).toBeGreaterThan(suggestions[1]!.score)
  })

  it('sends the item to the inbox when nothing is close enough', () => {
    expect(rankProjects('Let us book the team offsite venue', projects)).toEqual({ route: 'inbox', suggestions: [] })
    const weak = rankProjects('the app', projects, { threshold: 0.99 })
    expect(weak.route).toBe('inbox')
    expect(weak.preselectedProjectId).toBeUndefined()
  })

  it('answers the inbox without projects', () => {
    expect(rankProjects('anything', [])).toEqual({ route: 'inbox', suggestions: [] })
  })
})
