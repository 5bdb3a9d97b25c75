// POST /v1/search/answer over the 200,000 transcript segments the search scenario seeds (400
// sessions of 500): English, two-word, Chinese, and unanswerable questions; p50/p95 one request at
// a time and four at a time, extractive (no model).
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!

async function timeAnswers(url: string, cookie: string, query: string, concurrency: number, perWorker: number) {
  const timings: number[] = []
  let status = ''
  const worker = async () => {
    for (let request = 0; request < perWorker; request += 1) {
      const started = performance.now()
      const response = await fetch(url, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify({ query }) })
      const body = await response.json() as { status?: string }
      if (!response.ok) throw new Error(`answer failed: ${response.status} ${JSON.stringify(body)}`)
      timings.push(performance.now() - started)
      status = body.status ?? ''
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
  return { sorted: timings.sort((a, b) => a - b), status }
}

export async function benchAnswers(baseUrl: string, cookie: string, label: string): Promise<string[]> {
  const lines: string[] = []
  const url = `${baseUrl}/v1/search/answer`
  for (const query of ['What is on the quarterly roadmap?', 'What did we say about the release notes review?', '预算审批什么时候完成？', 'Who owns the zzqxv migration?']) {
    await timeAnswers(url, cookie, query, 1, 5)
    const alone = await timeAnswers(url, cookie, query, 1, 40)
    const busy = await timeAnswers(url, cookie, query, 4, 20)
    const figures = (sorted: number[]) => `p50 ${percentile(sorted, 50).toFixed(1)} / p95 ${percentile(sorted, 95).toFixed(1)} ms`
    lines.push(`${`answer "${query.slice(0, 28)}", 200k segments (${label})`.padEnd(60)} 1 at a time ${figures(alone.sorted)}   4 at a time ${figures(busy.sorted)}   (${alone.status})`)
  }
  return lines
}
