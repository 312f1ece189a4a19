/**
 * Scheduling and pacing: one look at the table for the rows due now, started as far as the
 * concurrency and each profile's gate allow (uploads first; polls yield to a full pipe), and the
 * time to look again. Follows the clock when it goes backwards.
 */
import type { Upload, UploadStore } from '../store/uploads'
import type { ProfileGates } from './gates'
import type { Sender } from './sender'
import { CLOCK_STEP_MS, POLL_YIELD_MS, type QueueOptions, type Work } from './types'

export class Scheduler {
  /** When a saturated pump last looked for overdue jobs. */
  private lastOverdueCheck = 0
  /** The last look (while saturated) found overdue jobs: look again at every turn of the pump. */
  private overdueBacklog = false
  /** The clock at the last pump, to notice it going backwards. */
  private lastNow: number | null = null

  constructor(
    private readonly store: UploadStore,
    private readonly gates: ProfileGates,
    private readonly opts: QueueOptions,
    private readonly sender: Sender,
  ) {}

  /** The clock went backwards (a corrected system clock, or a test): move every scheduled time with it. */
  private followClock(now: number): void {
    const last = this.lastNow
    this.lastNow = now
    if (last === null || now >= last - CLOCK_STEP_MS) return
    const delta = now - last
    this.store.shiftClock(delta)
    for (const [, g] of this.gates.all()) {
      if (g.pausedUntil > 0) g.pausedUntil += delta
      if (g.resetAt !== null) g.resetAt += delta
    }
  }

  /**
   * Starts what is due at `now`; returns when to look again (the next row or poll due, or a pause
   * ending), or Infinity when nothing is scheduled. A full pipe wakes the pump itself (each
   * finished request kicks it).
   */
  startDue(now: number): number {
    this.followClock(now)
    const { sender } = this
    const held = { upload: this.gates.blocked(now, 'upload'), poll: this.gates.blocked(now, 'poll') }
    let wakeAt = Math.min(held.upload.wakeAt, held.poll.wakeAt)
    /** Profiles whose rows may start now; null when none is held back (one query covers all). */
    const allowed = (kind: Work): string[] | null => {
      const blocked = held[kind].blocked
      return blocked.length === 0
        ? null
        : [...this.gates.all()].map(([id]) => id).filter((id) => !blocked.includes(id))
    }
    const holdBack = (kind: Work, profileId: string, until: number) => {
      held[kind].blocked = [...held[kind].blocked, profileId]
      wakeAt = Math.min(wakeAt, until)
    }
    /**
     * Starts rows of `kind` one at a time (so pacing sees each new request in flight) until `cap`
     * are in flight. One query answers both "what is due (by `dueBy`)?" and, when the earliest row
     * is not due yet, "when to look again?" (returned; null when no row waits).
     */
    let started = 0
    const fill = (kind: Work, cap: number, dueBy: number): number | null => {
      const inFlight = () => (kind === 'upload' ? sender.uploadsInFlight : sender.pollsInFlight)
      while (inFlight() < cap) {
        const row: Upload | undefined =
          kind === 'upload'
            ? this.store.nextToSend(allowed('upload'))
            : this.store.nextToPoll(allowed('poll'), [...sender.pollingRows])
        if (!row) break
        if (row.nextAttemptAt !== null && row.nextAttemptAt > dueBy) return row.nextAttemptAt
        const ready = this.gates.readyAt(row.profileId, now, kind)
        if (ready > 0) {
          holdBack(kind, row.profileId, ready)
          continue
        }
        if (kind === 'upload') sender.startUpload(row)
        else sender.startPoll(row)
        started++
      }
      return null
    }

    const nextUpload = fill('upload', this.opts.concurrency, now)

    // Polls share the profile's request budget and yield to uploads: while every upload slot is
    // busy, a job is polled only once it is overdue by POLL_YIELD_MS, so a big drop is accepted
    // first and no job waits for ever.
    const saturated = sender.uploadsInFlight >= this.opts.concurrency
    // While saturated, overdue jobs are looked for at most once a second (the pump runs per file),
    // one at a time; but once a look finds one, the overdue ones are polled at the full cap until
    // none is left: files that keep coming keep the upload slots busy, and one poll a second
    // against 20 new jobs a second left jobs waiting for ever (issue 30's soak).
    const pollCap = saturated && !this.overdueBacklog ? 1 : this.opts.maxPollsInFlight
    const lookForPolls = !saturated || this.overdueBacklog || now - this.lastOverdueCheck >= 1000
    if (saturated && lookForPolls) this.lastOverdueCheck = now
    started = 0
    const pollsBefore = sender.pollsInFlight
    const polled = lookForPolls ? fill('poll', pollCap, saturated ? now - POLL_YIELD_MS : now) : null
    // Still overdue ones waiting: the cap was reached with a row started (or none was free to start).
    if (lookForPolls)
      this.overdueBacklog = saturated && (started > 0 || pollsBefore >= pollCap) && polled === null
    const nextPoll = saturated ? null : polled

    const candidates = [wakeAt, nextUpload ?? Infinity, nextPoll ?? Infinity].filter((t) => t > now)
    return Math.min(...candidates)
  }
}
