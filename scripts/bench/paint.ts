/**
 * Keydown → painted, measured in the page (renderer.ts's search keystroke, review.ts's next
 * record): `armKeyToPaint` notes the time of the next keydown, watches the DOM until `shown` says
 * the awaited state is there, and resolves `window.__typed` with the time from the keydown to the
 * frame after (requestAnimationFrame, then a task: the moment the browser has painted it, not only
 * built it). `typedMs` waits for that figure. Timestamps are performance.now() in the page, so no
 * automation latency is counted.
 */
import type { JSHandle, Page } from 'playwright-core'

/**
 * In the page: true once the awaited state shows; otherwise false, or what shows instead (words
 * for the error when `late` passes).
 */
export type Shown = () => boolean | string

interface PaintWindow {
  __typed: Promise<number>
  __keyAt: number
}

export interface ArmOptions {
  /** Watch attribute changes too (a state that shows as an attribute). */
  attributes?: boolean
  /** Fail `__typed` when the state has not shown `ms` after arming: "<what> not painted in <s> s: <shown>". */
  late?: { ms: number; what: string }
}

/** Arms the page: the next keydown starts the clock; `shown` (a function in the page) stops it. */
export async function armKeyToPaint(page: Page, shown: JSHandle<Shown>, opts: ArmOptions = {}): Promise<void> {
  await page.evaluate(
    ([shown, { attributes = false, late }]) => {
      const w = window as unknown as PaintWindow
      w.__keyAt = NaN
      const onKey = () => {
        w.__keyAt = performance.now()
        document.removeEventListener('keydown', onKey, true)
      }
      document.addEventListener('keydown', onKey, true)
      w.__typed = new Promise<number>((done, fail) => {
        const timer =
          late &&
          setTimeout(() => {
            fail(new Error(`${late.what} not painted in ${late.ms / 1000} s: ${String(shown())}`))
          }, late.ms)
        const obs = new MutationObserver(() => {
          if (Number.isNaN(w.__keyAt) || shown() !== true) return
          obs.disconnect()
          clearTimeout(timer)
          requestAnimationFrame(() => {
            const ch = new MessageChannel()
            ch.port1.onmessage = () => done(performance.now() - w.__keyAt)
            ch.port2.postMessage(null)
          })
        })
        obs.observe(document.querySelector('.screen') ?? document.body, {
          childList: true,
          subtree: true,
          attributes,
          characterData: true,
        })
      })
    },
    [shown, opts] as const,
  )
  await shown.dispose()
}

/** The figure of the armed keystroke: ms from its keydown to the frame that painted the state. */
export function typedMs(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as PaintWindow).__typed)
}
