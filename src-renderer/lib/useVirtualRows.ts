import { useVirtualizer } from '@tanstack/react-virtual'
import { useEffect, useRef } from 'react'

/**
 * A long list drawn a window of rows at a time (@tanstack/react-virtual) whose rows the store loads
 * page by page: `ensure(first, last)` is asked for the rows in view each time they change, the
 * count changes or a new query starts (`gen`; it also scrolls back to the top). Put `scrollRef` on
 * the element that scrolls; `keyMove` says where a key moves from a row.
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
  // A new query starts at the top.
  useEffect(() => {
    if (scrollRef.current) scrollRef.current.scrollTop = 0
  }, [gen])
  /**
   * The row a key moves to from row `from`: Arrow Down/Up one row, Page Down/Up the rows in view
   * less one, Home and End the first and last; undefined for any other key.
   */
  const keyMove = (key: string, from: number): number | undefined => {
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 400) / rowHeight) - 1)
    const moves: Record<string, number> = {
      ArrowDown: from + 1,
      ArrowUp: from - 1,
      PageDown: from + page,
      PageUp: from - page,
      Home: 0,
      End: count - 1,
    }
    const to = moves[key]
    return to === undefined ? undefined : Math.max(0, Math.min(count - 1, to))
  }
  return { scrollRef, virtualizer, items, first, last, keyMove }
}
