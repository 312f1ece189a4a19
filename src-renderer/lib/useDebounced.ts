import { useEffect, useRef } from 'react'

/** Calls `fn(value)` once `value` has stopped changing for `ms`. The first value is not sent. */
export function useDebouncedEffect<T>(value: T, ms: number, fn: (v: T) => void): void {
  const first = useRef(true)
  const fnRef = useRef(fn)
  fnRef.current = fn
  useEffect(() => {
    if (first.current) {
      first.current = false
      return
    }
    const t = setTimeout(() => fnRef.current(value), ms)
    return () => clearTimeout(t)
  }, [value, ms])
}
