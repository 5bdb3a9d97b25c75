// The work objects of a set. A long list is virtualized against the page's own scroll
// (@tanstack/react-virtual, cards measured as they render, so an opened card grows in place):
// a session with 100 work objects renders the few cards on screen, not all of them. The same list
// holds a set's pending proposals (a long recording can propose hundreds).
import { useLayoutEffect, useRef, useState, type ReactNode } from 'react'
import { useWindowVirtualizer } from '@tanstack/react-virtual'
import type { WorkObject } from '../../lib/types.ts'

/** Above this many cards only those near the viewport are rendered. */
export const VIRTUAL_CARDS_FROM = 30

type ListProps = { objects: WorkObject[]; render: (wo: WorkObject) => ReactNode; focusId?: string; testId?: string }

export function WorkObjectList({ objects, render, focusId, testId = 'work-objects' }: ListProps) {
  if (objects.length <= VIRTUAL_CARDS_FROM) return <div data-testid={testId}>{objects.map(render)}</div>
  return <VirtualCards objects={objects} render={render} focusId={focusId} testId={testId} />
}

function VirtualCards({ objects, render, focusId, testId }: ListProps) {
  const list = useRef<HTMLDivElement>(null)
  const [offset, setOffset] = useState(0)
  // Where the list starts in the page: what is above it (takeover, proposals) changes it.
  useLayoutEffect(() => {
    const top = Math.round((list.current?.getBoundingClientRect().top ?? 0) + window.scrollY)
    if (top !== offset) setOffset(top)
  })
  const virtualizer = useWindowVirtualizer({
    count: objects.length,
    estimateSize: () => 190,
    overscan: 4,
    scrollMargin: offset,
    getItemKey: (index) => objects[index]!.id,
  })
  const focusIndex = focusId ? objects.findIndex((wo) => wo.id === focusId) : -1
  useLayoutEffect(() => {
    if (focusIndex >= 0) virtualizer.scrollToIndex(focusIndex, { align: 'center' })
  }, [focusIndex, virtualizer])
  const items = virtualizer.getVirtualItems()
  const before = Math.max(0, (items[0]?.start ?? offset) - offset)
  const after = Math.max(0, virtualizer.getTotalSize() - ((items.at(-1)?.end ?? offset) - offset))
  return (
    <div ref={list} data-testid={testId} style={{ paddingTop: before, paddingBottom: after }}>
      {items.map((item) => (
        <div key={item.key} className="slot" data-index={item.index} ref={virtualizer.measureElement}>{render(objects[item.index]!)}</div>
      ))}
    </div>
  )
}
