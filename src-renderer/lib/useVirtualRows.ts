import { useVirtualizer } from '@tanstack/react-virtual'
import { useEffect, useRef } from 'react'

/**
 * A long list drawn a window of rows at a time (@tanstack/react-virtual) whose rows the store loads
 * page by page: `ensure(first, last)` is asked for the rows in view each time they change, the
 * count changes or a new query starts (`gen`). Put `scrollRef` on the element that scrolls.
 */
export function useVirtualRows({
  count,
  rowHeight,
  overscan,
  gen,
  ensure,
}: {
  count: number
  rowHeight: number
  overscan: number
  gen: number
  ensure: (first: number, last: number) => void
}) {
  const scrollRef = useRef<HTMLDivElement>(null)
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    // Rows on the very first render (the list is at most the window's height); the real size is
    // measured right after. Without it the first render has no rows and they come one pass later.
    initialRect: { width: 0, height: window.innerHeight },
    overscan,
  })
  const items = virtualizer.getVirtualItems()
  const first = items[0]?.index ?? 0
  const last = items[items.length - 1]?.index ?? -1
  useEffect(() => {
    if (count > 0 && last >= first) ensure(first, last)
  }, [first, last, count, gen, ensure])
  return { scrollRef, virtualizer, items, first, last }
}
