/**
 * The engine's heap kept near what is live while files keep coming (issue 30's soak). Each file the
 * engine handles leaves garbage that lives a few seconds (its promises, rows and answers, a folder's
 * walk): long enough to leave V8's young generation. V8 lets the old generation fill with it before
 * collecting, further the more the engine allocates, and keeps the pages it freed: at 20 files a
 * second into a folder that keeps them, live objects stayed at ~13 MB for 15 minutes while the old
 * generation swung between 13 and 30 MB, and RSS grew by 18–28 MB.
 *
 * So every 10 s in which the engine handled a file, it looks at its heap (a few µs), and when it is
 * more than HEADROOM above what was live after the last collection, it asks V8 for the collection
 * V8 makes when memory runs short (`flavor: 'last-resort'`: collected, compacted, and the freed pages
 * given back to the system; a plain full collection keeps them, and RSS with them). That takes tens
 * of ms for the engine's heap, on the engine's thread, never the window's. A quiet engine is left
 * alone (its heap does not grow). V8's `gc` is reached through its `--expose-gc` flag, set at run
 * time for a new context only (a V8 without the options object makes a plain full collection).
 */
import v8 from 'node:v8'
import vm from 'node:vm'
import type { EngineEmitter } from '../events'

/** How often a busy engine looks at its heap. */
export const CHECK_EVERY_MS = 10_000
/** Garbage let to gather above what was live before it is collected (the young generation's size). */
export const HEADROOM_BYTES = 8 * 1024 * 1024

type Gc = (options?: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void

let gc: Gc | null | undefined

/** V8's `gc` function, or null where it cannot be had. */
function fullCollection(): Gc | null {
  if (gc === undefined) {
    try {
      v8.setFlagsFromString('--expose-gc')
      const fn: unknown = vm.runInNewContext('gc')
      gc = typeof fn === 'function' ? (fn as Gc) : null
    } catch {
      gc = null
    }
  }
  return gc
}

const heapUsed = (): number => v8.getHeapStatistics().used_heap_size

export class HeapKeeper {
  private busy = false
  /** What was live after the last collection (at first: at start). */
  private live = heapUsed()
  private readonly timer: NodeJS.Timeout
  private readonly off: () => void

  constructor(
    events: EngineEmitter,
    everyMs = CHECK_EVERY_MS,
    private readonly headroom = HEADROOM_BYTES,
  ) {
    this.off = events.on('upload', () => (this.busy = true))
    this.timer = setInterval(() => this.tick(), everyMs)
    this.timer.unref()
  }

  /** After a busy while, collects if the heap is over the headroom; returns whether it did. */
  tick(): boolean {
    if (!this.busy) return false
    this.busy = false
    if (heapUsed() <= this.live + this.headroom) return false
    const collect = fullCollection()
    if (!collect) return false
    collect({ type: 'major', execution: 'sync', flavor: 'last-resort' })
    this.live = heapUsed()
    return true
  }

  stop(): void {
    clearInterval(this.timer)
    this.off()
  }
}
