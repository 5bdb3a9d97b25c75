// The turn that settles a subject (ninth pass): the passage that holds a question's words often
// only sets the subject up ("莫干山票数最多，但是…"), and the decision comes turns later in words the
// question does not use ("那就千岛湖吧。", "Okay, twelve weeks then.", "Let's do it."). The
// extraction engine (pure, English and Chinese) knows decisions and the turns that settle them: it
// is run over a short window after the best passages (read by the search's one neighbourhood query), and a decision settled there is marked on the
// passage (`Unit.decidedBy`); ranking.ts (decide) then ranks that turn just above it.
import { extractItems, splitSentences } from '../extraction/index.ts'
import type { Unit } from './ranking.ts'

/** How many of the best passages (distinct segments) are looked after, and how many turns after each. */
const LOOKED_AFTER = 3
export const TURNS_AFTER_SETTLE = 6

type Segment = { id: string; session_id: string; start_ms: number; text: string }
/** Turns of one meeting in order, as the search read them around a hit (ask.ts). */
export type Window = Segment[]

/** The turns around a segment (two before, TURNS_AFTER_SETTLE after) out of the windows read, from the one reaching furthest after it. */
function windowOf(id: string, windows: Window[]): { centre: Segment; segments: Segment[] } | undefined {
  let found: { window: Window; at: number } | undefined
  for (const window of windows) {
    const at = window.findIndex((segment) => segment.id === id)
    if (at !== -1 && (!found || window.length - at > found.window.length - found.at)) found = { window, at }
  }
  if (!found) return undefined
  const segments = found.window.slice(Math.max(0, found.at - 2), found.at + 1 + TURNS_AFTER_SETTLE)
  return { centre: found.window[found.at]!, segments }
}

/** Decisions of a window, as the segment ids each rests on; kept per process (a window's final text rarely changes). */
const windows = new Map<string, string[][]>()
const WINDOWS_KEPT = 5000

function decisionsIn(segments: Segment[]): string[][] {
  const key = segments.map((segment) => `${segment.id}:${segment.text.length}`).join('|')
  const known = windows.get(key)
  if (known) return known
  const { items } = extractItems({
    segments: segments.map((segment) => ({ id: segment.id, text: segment.text, startMs: segment.start_ms, endMs: segment.start_ms })),
    meetingStartedAt: new Date(0).toISOString(),
    // The rules' decisions: the learned detector's (extraction's ninth pass) were not measured for answers.
  }, { decisions: 'rules' })
  const found = items.filter((item) => item.kind === 'decision').map((item) => item.sourceSegmentIds)
  if (windows.size >= WINDOWS_KEPT) windows.delete(windows.keys().next().value!)
  windows.set(key, found)
  return found
}

/**
 * Marks the best passages with the later turns that settle a decision on their subject (a decision
 * the engine finds in the passage's window, whose last turn comes after the passage), adding those
 * turns as passages when they are not passages yet. Returns whether anything was marked.
 */
export function markSettled(ranked: Unit[], windows: Window[], tokenize: (text: string) => string[]): boolean {
  const best: Unit[] = []
  for (const unit of ranked) {
    if (best.length === LOOKED_AFTER) break
    if (unit.source.kind !== 'segment' || unit.mismatch || unit.coverage === 0 || best.some((known) => known.source.id === unit.source.id)) continue
    best.push(unit)
  }
  if (best.length === 0) return false
  const around = best.map((unit) => windowOf(unit.source.id, windows)).filter((found) => found !== undefined)
  const bySegment = Map.groupBy(ranked.filter((unit) => unit.source.kind === 'segment'), (unit) => unit.source.id)
  let marked = false
  for (const { centre, segments } of around) {
    const at = segments.indexOf(centre)
    const position = new Map(segments.map((segment, index) => [segment.id, index]))
    const settling = new Set<string>()
    for (const sources of decisionsIn(segments)) {
      const last = position.get(sources.at(-1)!)
      if (last !== undefined && last > at) settling.add(segments[last]!.id)
    }
    if (settling.size === 0) continue
    const setups = bySegment.get(centre.id) ?? []
    for (const setup of setups) setup.decidedBy = [...settling]
    marked = true
    const setup = setups[0]!
    for (const id of settling) {
      if (bySegment.has(id)) continue
      const index = position.get(id)!
      const segment = segments[index]!
      const previous = segments[index - 1]
      const unit: Unit = {
        text: segment.text, source: { kind: 'segment', id: segment.id, quote: segment.text, sessionId: segment.session_id, startMs: segment.start_ms }, extra: [], boost: 0, coverage: 0, score: 0,
        context: new Set([...(setup.context ?? []), ...segments.flatMap((turn) => tokenize(turn.text))]),
        ...(setup.meeting ? { meeting: setup.meeting } : {}), ...(setup.title ? { title: setup.title } : {}), ...(setup.meetingText !== undefined ? { meetingText: setup.meetingText } : {}),
        ...(previous ? { before: new Set(tokenize(previous.text)), beforeText: previous.text } : {}),
        vectorText: segment.text,
      }
      if (splitSentences(segment.text).length > 0) ranked.push(unit)
      bySegment.set(id, [unit])
    }
  }
  return marked
}
