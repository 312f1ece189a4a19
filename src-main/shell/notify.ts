/**
 * Turns the engine's `upload` events into at most one desktop notification per window, so that
 * 200 receipts dropped at once make one "200 receipts recorded", not 200 pop-ups.
 *
 * Plain Node: the caller gives a `show` function (Electron's Notification in the app) and, in
 * tests, timers (or uses vi.useFakeTimers, which replaces the global ones this defaults to).
 */
import type { EngineEvents } from '../core/events'
import { printable } from '../core/names'
import type { Upload } from '../core/store/uploads'
import { type Say, englishSay } from './language'
import { NOTIFY } from './shell-messages'

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
}

const globalTimers: Timers = {
  setTimeout: (fn, ms) => {
    const t = setTimeout(fn, ms)
    t.unref?.() // a pending notification never keeps the process alive
    return t
  },
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
}

export interface BatchSummary {
  /** Rows that reached `completed` during the window. */
  completed: number
  /** Rows that reached `failed`, or were skipped for a reason a person must act on. */
  attention: number
  /** The file name when exactly one row is in the summary, for a friendlier message. */
  singleName: string | null
}

export interface ShellNotification {
  title: string
  body: string
  /** 'attention' when anything failed: the shell may make it persistent or louder. */
  kind: 'completed' | 'attention'
  summary: BatchSummary
}

export interface NotificationBatcherOptions {
  show: (n: ShellNotification) => void
  /** Length of a batching window, ms. Default 3 s. */
  windowMs?: number
  /** Start enabled (the `notifications` setting). Default true. */
  enabled?: boolean
  timers?: Timers
  /** The language of the notifications, asked at each one (it may change): English by default. */
  say?: () => Say
}

/** Skips nobody must act on: the file was already there before watching started. */
const QUIET_SKIPS: ReadonlySet<NonNullable<Upload['reason']>> = new Set(['existed_before'])

/** The notification for a window's counts, or null when there is nothing to say. */
export function describeBatch(summary: BatchSummary, say: Say = englishSay): ShellNotification | null {
  const { completed, attention, singleName } = summary
  if (completed === 0 && attention === 0) return null
  if (attention === 0) {
    return {
      title: 'Bookdrop',
      body:
        completed === 1 && singleName
          ? say(NOTIFY.recordedNamed, { count: completed, name: singleName })
          : say(NOTIFY.recorded, { count: completed }),
      kind: 'completed',
      summary,
    }
  }
  const body =
    completed > 0
      ? say(NOTIFY.both, { recorded: completed, attention })
      : attention === 1 && singleName
        ? say(NOTIFY.attentionNamed, { count: attention, name: singleName })
        : say(NOTIFY.attention, { count: attention })
  return { title: 'Bookdrop', body, kind: 'attention', summary }
}

export class NotificationBatcher {
  private readonly show: (n: ShellNotification) => void
  private readonly windowMs: number
  private readonly timers: Timers
  private readonly say: () => Say
  private enabled: boolean
  private timer: unknown = null
  private completed = 0
  private attention = 0
  private lastName: string | null = null

  constructor(opts: NotificationBatcherOptions) {
    this.show = opts.show
    this.windowMs = opts.windowMs ?? 3000
    this.enabled = opts.enabled ?? true
    this.timers = opts.timers ?? globalTimers
    this.say = opts.say ?? (() => englishSay)
  }

  get isEnabled(): boolean {
    return this.enabled
  }

  /** Follows the `notifications` setting. Turning it off drops anything pending. */
  setEnabled(enabled: boolean): void {
    this.enabled = enabled
    if (!enabled) this.reset()
  }

  /** Feed every engine `upload` event here; only transitions into completed/failed/skipped count. */
  handle(event: EngineEvents['upload']): void {
    if (!this.enabled) return
    const { upload, previous } = event
    if (upload.status === previous) return
    if (upload.status === 'completed') this.completed++
    else if (upload.status === 'failed') this.attention++
    else if (upload.status === 'skipped' && !(upload.reason && QUIET_SKIPS.has(upload.reason)))
      this.attention++
    else return
    // Printable: a name holding a newline or a bidi control (U+202E) cannot forge the message.
    this.lastName = printable(upload.name)
    // The first event of a window starts it; the rest of the window only adds to the counts.
    this.timer ??= this.timers.setTimeout(() => this.flush(), this.windowMs)
  }

  /** Shows what is pending now (also used when quitting) and starts a fresh window. */
  flush(): void {
    const total = this.completed + this.attention
    const n = describeBatch({
      completed: this.completed,
      attention: this.attention,
      singleName: total === 1 ? this.lastName : null,
    }, this.say())
    this.reset()
    if (n && this.enabled) this.show(n)
  }

  /** Stops the timer and forgets pending counts without showing anything. */
  dispose(): void {
    this.reset()
  }

  private reset(): void {
    if (this.timer !== null) this.timers.clearTimeout(this.timer)
    this.timer = null
    this.completed = 0
    this.attention = 0
    this.lastName = null
  }
}
