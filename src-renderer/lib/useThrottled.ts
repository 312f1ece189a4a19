import { useCallback, useEffect, useRef } from 'react'

/**
 * A throttled version of `fn`, for input that should be acted on as it is typed: a call runs at
 * once when the last one ran at least `ms` ago; otherwise it runs `ms` after that one, with the
 * latest arguments. So a single keystroke is answered immediately, and a burst of keystrokes makes
 * one call per `ms`, the last with what was typed last. Pending calls are dropped on unmount.
 */
export function useThrottled<A extends unknown[]>(fn: (...args: A) => void, ms: number): (...args: A) => void {
  const fnRef = useRef(fn)
  const lastRun = useRef(Number.NEGATIVE_INFINITY)
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  const pending = useRef<A | null>(null)
  useEffect(() => {
    fnRef.current = fn
  })
  useEffect(() => () => clearTimeout(timer.current), [])
  return useCallback(
    (...args: A) => {
      const run = () => {
        timer.current = undefined
        lastRun.current = performance.now()
        const next = pending.current
        pending.current = null
        if (next) fnRef.current(...next)
      }
      pending.current = args
      if (timer.current !== undefined) return
      const wait = lastRun.current + ms - performance.now()
      if (wait <= 0) run()
      else timer.current = setTimeout(run, wait)
    },
    [ms],
  )
}
