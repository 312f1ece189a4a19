/**
 * The watcher's scans: whole-folder walks, one at a time (calls that come while one waits share
 * it), a jittered periodic rescan behind chokidar's events, and what a scan tells about the folder
 * itself (lost, replaced, sub-folders that cannot be read). After a walk, records of files it did
 * not see are pruned (stability.ts).
 *
 * A scan belongs to the watch session current when it begins: it takes the session's signal and
 * checks `signal.aborted` after every await.
 */
import { TRANSIENT_CODES, type WatchIo } from './io'
import * as msg from './messages'
import type { RootHealth } from './root-health'
import type { StabilitySampler } from './stability'
import { type FolderWalker, SCAN_BATCH, noTrouble } from './walker'
import { JITTER } from './watch-options'

/** What the scans need from their watcher. */
export interface RescansHost {
  readonly rescanIntervalMs: number
  readonly io: WatchIo
  readonly health: RootHealth
  readonly sampler: StabilitySampler
  readonly walker: FolderWalker
  /** Between start() and stop(). */
  active(): boolean
  /** The real path of the watched folder. */
  realRoot(): string
  /** The current watch session's signal: aborted on stop() and while the folder is lost. */
  session(): AbortSignal
  /** The watcher's rescan() (the periodic rescan goes through it). */
  rescan(): Promise<void>
  /** The folder was replaced under the watcher: watch the new one. */
  restartWatcher(): Promise<void>
  updateStatus(): void
  /** A scan ended with the folder watched: emit `scanned`. */
  scanned(): void
  warn(where: string, e: unknown): void
}

export class Rescans {
  /** Scans running now. */
  running = 0
  private chain: Promise<void> = Promise.resolve()
  private queued: Promise<void> | undefined
  private timer: NodeJS.Timeout | undefined

  constructor(private readonly host: RescansHost) {}

  /** Queues a scan after the one running (a scan already waiting is shared). Never rejects. */
  run(): Promise<void> {
    if (this.queued) return this.queued
    const queued: Promise<void> = this.chain.then(async () => {
      if (this.queued === queued) this.queued = undefined
      this.running++
      try {
        await this.scanOnce()
        if (this.host.active() && !this.host.health.lostMessage) this.host.scanned()
      } catch (e) {
        this.host.warn('rescan', e)
      } finally {
        this.running--
      }
    })
    this.queued = queued
    this.chain = queued
    return queued
  }

  /** Resolves when the scans queued so far have ended. */
  async settled(): Promise<void> {
    await this.chain.catch(() => undefined)
  }

  /** The next periodic rescan, after the interval times a jitter factor (none once the session ended). */
  schedule(): void {
    this.cancel()
    if (this.host.session().aborted) return
    const factor = 1 - JITTER + Math.random() * 2 * JITTER
    this.timer = setTimeout(
      () => {
        this.timer = undefined
        void this.host.rescan().then(() => this.schedule())
      },
      Math.round(this.host.rescanIntervalMs * factor),
    )
  }

  /** No periodic rescan until schedule() is called again. */
  cancel(): void {
    clearTimeout(this.timer)
    this.timer = undefined
  }

  private async scanOnce(): Promise<void> {
    const { health, sampler } = this.host
    const session = this.host.session()
    if (session.aborted) return
    const gen = sampler.nextGeneration()
    const trouble = noTrouble()
    const rootError = await this.host.walker.walk(this.host.realRoot(), 'scan', session, trouble)
    if (session.aborted) return
    if (rootError) {
      if (!TRANSIENT_CODES.has(rootError)) health.enterLost(rootError)
      return
    }
    // Was the folder replaced under the watcher (deleted and recreated)? Then watch the new one.
    const rootStat = await this.host.io.stat(this.host.realRoot(), session)
    if (session.aborted) return
    if (rootStat.ok && health.replaced(rootStat.value)) void this.host.restartWatcher()

    await sampler.pruneUnseen(gen, [...trouble.dirs, ...trouble.skipped], SCAN_BATCH, session)
    if (session.aborted) return
    health.problem =
      trouble.dirs.length > 0 ? msg.subfoldersUnreadable(trouble.dirs, trouble.code) : undefined
    this.host.updateStatus()
  }
}
