/**
 * Stability sampling: when a file a watcher noticed is complete enough to take.
 *
 * - Every event or walk hit runs a *check* of that path: one `stat`, serialised per path. Checks of
 *   a path never overlap; calls arriving meanwhile coalesce into one more check.
 * - A new or changed file becomes *pending*: it is sampled every stabilityMs / 2 (and at once on
 *   every event). Each new version (size, mtime) is *peeked* at (peek.ts): opened where it is
 *   checked to lie inside the folder (inside.ts), its first and last bytes read and checked (intake/inspect.ts:
 *   is its format's end marker there?), and on Linux /proc is asked whether a program still holds
 *   it open for writing (writers.ts). It is *finished*:
 *   - at once when it is complete by its format (a PDF's %%EOF, a PNG's IEND…) and no program
 *     holds it open for writing (Linux, where that can be told);
 *   - while a program holds it open for writing, never, unless it has not changed for
 *     unfinishedQuietMs (then it is taken with a note);
 *   - when its format says it is not finished (its end marker missing), only once it has not
 *     changed for unfinishedQuietMs (taken with a note);
 *   - otherwise (a kind without an end marker, no way to tell writers) when at least two samples
 *     agree on size and mtime and nothing has changed for stabilityMs. When a change is seen
 *     between samples, the file's own mtime (if it falls between the two samples) says when it
 *     changed, so a missed event costs no extra latency.
 * - A link to a file outside the folder is emitted at once, flagged `outside`, and never read.
 * - A finished file is emitted once as a `candidate`. The version emitted (size, mtime) is
 *   remembered per path, so events and rescans never report it again; when the file is seen gone
 *   the record is dropped, so a file that comes back (moved out and back) is reported again, once
 *   per appearance.
 * - A pending file that disappears emits `vanished`.
 *
 * Every check belongs to the watch session current when it starts (FolderWatcher.session): when
 * that session is aborted (stop, the folder lost) the check ends without emitting.
 *
 * Memory: per file, one small record (path key + size, mtime, two flags, ~200 B measured for
 * 20,000 files); pending files add a timer.
 */
import type { Stats } from 'node:fs'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileKind } from '../../../schemas/routes'
import { GONE_CODES, TRANSIENT_CODES } from './io'
import type { IoResult } from './io'
import * as msg from './messages'
import { keyOf } from './paths'
import { peekVersion, readable } from './peek'
import type { CheckSlot, Emitted, Pending, SamplerHost, Via } from './stability-records'
import type { WatchCandidate, WatchVanished } from './types'

export type { SamplerHost, Via } from './stability-records'

/**
 * A walk that finds a file last modified longer ago than this plus the stability window counts
 * that quiet time toward the window (two samples are still needed). The slack covers file systems
 * whose mtimes are coarse (FAT keeps 2 s) or late.
 */
const MTIME_SLACK_MS = 2_000

/** While a program holds a file open for writing, it is sampled this often at first (ms)… */
const WRITER_SAMPLE_MIN_MS = 40
/** …and, the longer it stays quiet, up to this often, so a long pause costs little. */
const WRITER_SAMPLE_MAX_MS = 250

export class StabilitySampler {
  private readonly pending = new Map<string, Pending>()
  private readonly emitted = new Map<string, Emitted>()
  private readonly checking = new Map<string, CheckSlot>()
  /** Walk generation: bumped by each whole-folder walk, stamped on every record it sees. */
  private generation = 0

  constructor(private readonly host: SamplerHost) {}

  get pendingCount(): number {
    return this.pending.size
  }

  /** True while a file waits to become stable or a check is in flight. */
  busy(): boolean {
    return this.pending.size > 0 || this.checking.size > 0
  }

  counts(): { pending: number; emitted: number; checking: number } {
    return { pending: this.pending.size, emitted: this.emitted.size, checking: this.checking.size }
  }

  /** Resolves when every check in flight has ended. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.checking.values()].map((c) => c.done))
  }

  /** Drops every pending file (stop, or the folder lost); `vanished` for each when it is gone. */
  dropPending(gone: boolean): void {
    const pending = [...this.pending.values()]
    this.pending.clear()
    for (const p of pending) {
      clearTimeout(p.timer)
      if (gone) this.emitVanished(p)
    }
  }

  /** Checks one path now; serialised per path (calls meanwhile coalesce into one more check). */
  check(filePath: string, via: Via): Promise<void> {
    const key = keyOf(filePath)
    const slot = this.checking.get(key)
    if (slot) {
      slot.again = true
      slot.path = filePath
      if (via === 'add' || slot.via === 'sample' || slot.via === 'scan') slot.via = via
      return slot.done
    }
    const arrivedAt = Date.now()
    const fresh: CheckSlot = { again: false, via, path: filePath, done: Promise.resolve() }
    this.checking.set(key, fresh)
    fresh.done = (async () => {
      try {
        do {
          fresh.again = false
          await this.runCheck(key, fresh.path, fresh.via, arrivedAt, this.host.session())
        } while (fresh.again && !this.host.session().aborted)
      } catch (e) {
        this.host.warn('check', e)
      } finally {
        this.checking.delete(key)
      }
    })()
    return fresh.done
  }

  /** A folder below the root went away (deleted, moved out): check what we know inside it. */
  subtreeVanished(dir: string): void {
    const prefix = dir + path.sep
    const keys = new Set<string>()
    for (const [key, p] of this.pending) if (p.path.startsWith(prefix)) keys.add(key)
    for (const key of this.emitted.keys()) if (key.startsWith(prefix)) keys.add(key)
    for (const key of keys) void this.check(this.pending.get(key)?.path ?? key, 'unlink')
  }

  /** Starts a whole-folder walk: records it sees are stamped with the returned generation. */
  nextGeneration(): number {
    return ++this.generation
  }

  /**
   * After a whole-folder walk: records of files it did not see (outside `notWalked`, the folders it
   * could not read) are dropped once a stat confirms they are gone.
   */
  async pruneUnseen(gen: number, notWalked: readonly string[], batchSize: number, signal: AbortSignal): Promise<void> {
    const unseen: string[] = []
    for (const [key, em] of this.emitted) {
      if (em.seen === gen || this.pending.has(key)) continue
      if (notWalked.some((d) => key.startsWith(d + path.sep))) continue
      unseen.push(key)
    }
    for (let i = 0; i < unseen.length && !signal.aborted; i += batchSize) {
      await Promise.all(
        unseen.slice(i, i + batchSize).map(async (key) => {
          const st = await this.host.io.stat(key, signal)
          if (signal.aborted) return
          if (!st.ok && GONE_CODES.has(st.code) && !this.pending.has(key) && !this.checking.has(key)) {
            this.emitted.delete(key)
          }
        }),
      )
    }
  }

  private async runCheck(
    key: string,
    filePath: string,
    via: Via,
    arrivedAt: number,
    signal: AbortSignal,
  ): Promise<void> {
    const issuedWall = Date.now()
    const r = await this.host.io.stat(filePath, signal)
    if (signal.aborted) return
    const nowMono = performance.now()
    const nowWall = Date.now()

    let stats: Stats | undefined
    let err: string | undefined
    let errMessage: string | undefined
    if (r.ok) {
      if (!r.value.isFile()) return this.forget(key, false) // a folder, a link to one, a fifo…
      stats = r.value
    } else if (GONE_CODES.has(r.code)) {
      return this.forget(key, true)
    } else if (r.code === 'ELOOP') {
      return this.forget(key, false) // a symlink loop is not a file
    } else if (TRANSIENT_CODES.has(r.code)) {
      const p = this.pending.get(key)
      if (p) this.schedule(p, nowMono)
      return
    } else {
      err = r.code // can't stat (EACCES on a parent…): tracked as a state of its own
      errMessage = r.message
    }
    const size = stats ? stats.size : -1
    const mtimeMs = stats ? stats.mtimeMs : -1

    const p = this.pending.get(key)
    if (!p) {
      const em = this.emitted.get(key)
      if (em) {
        em.seen = this.generation
        if (em.size === size && em.mtimeMs === mtimeMs) {
          // Already reported. Only an unreadable file that became readable is reported again.
          if (!em.unreadable || err !== undefined) return
          const now = await this.readable(filePath, signal)
          if (signal.aborted || !now.ok) return
        }
      } else {
        const cutoff = this.host.cutoffMs()
        if (cutoff !== undefined && stats) {
          // "Files already there" are ignored; a file newly moved/copied in has a fresh ctime.
          const age = via === 'add' ? Math.max(stats.mtimeMs, stats.ctimeMs) : stats.mtimeMs
          if (age < cutoff) return
        }
      }
      // Found by a walk and not written for a while (beyond the slack): that quiet time counts, so
      // an initial scan of old files does not wait a window per file. Not when polling: network
      // shares may report cached attributes.
      let changedAt = nowMono
      if (via === 'scan' && stats && !this.host.polling()) {
        const quiet = nowWall - mtimeMs - MTIME_SLACK_MS
        if (quiet > 0) changedAt = nowMono - Math.min(quiet, this.host.stabilityMs)
      }
      const fresh: Pending = {
        path: filePath,
        detectedAt: arrivedAt,
        source: via === 'scan' ? 'scan' : 'watcher',
        size,
        mtimeMs,
        err,
        errMessage,
        changedAt,
        lastSampleWall: issuedWall,
        versionSeenAt: nowMono,
        samples: 1,
        timer: undefined,
        peekedVersion: undefined,
        peek: undefined,
      }
      this.pending.set(key, fresh)
      await this.decide(key, fresh, signal)
      return
    }

    p.path = filePath
    if (p.size !== size || p.mtimeMs !== mtimeMs || p.err !== err) {
      // Changed since the last sample. It changed after that sample was taken; if the file's
      // mtime falls in between, it says when (a missed event then costs no latency).
      let changedWall = nowWall
      if (err === undefined && mtimeMs >= p.lastSampleWall && mtimeMs <= nowWall) changedWall = mtimeMs
      p.changedAt = nowMono - (nowWall - changedWall)
      p.size = size
      p.mtimeMs = mtimeMs
      p.err = err
      p.errMessage = errMessage
      p.samples = 1
      p.lastSampleWall = issuedWall
      p.versionSeenAt = nowMono
      await this.decide(key, p, signal)
      return
    }
    p.samples++
    p.lastSampleWall = issuedWall
    await this.decide(key, p, signal)
  }

  /** How long the pending file has been quiet: since the change last seen, or by its mtime when older. */
  private quietFor(p: Pending, nowMono: number): { seen: number; byMtime: number } {
    const seen = nowMono - p.changedAt
    // A file's own mtime also says how long it has been left alone (not when polling: network
    // shares may report cached attributes).
    const byMtime = p.err === undefined && !this.host.polling() ? Date.now() - p.mtimeMs - MTIME_SLACK_MS : 0
    return { seen, byMtime: Math.max(seen, byMtime) }
  }

  /** Is the pending file finished? Emits it, or schedules its next sample (see the file's comment). */
  private async decide(key: string, p: Pending, signal: AbortSignal): Promise<void> {
    const stable = (now: number) => p.samples >= 2 && now - p.changedAt >= this.host.stabilityMs - 1
    if (p.err !== undefined) {
      // Cannot even be stat'ed (EACCES on a parent…): reported as unreadable once it settles.
      const now = performance.now()
      if (stable(now)) return this.finish(key, p, { unreadableReason: msg.unreadableReason(p.err, p.errMessage ?? p.err) })
      return this.schedule(p, now)
    }
    const version = `${p.size}:${p.mtimeMs}`
    if (p.peekedVersion !== version) {
      const peek = await peekVersion(p.path, this.host, signal)
      if (signal.aborted || this.pending.get(key) !== p) return
      p.peekedVersion = version
      p.peek = peek
    }
    const peek = p.peek!
    let now = performance.now()
    switch (peek.kind) {
      case 'outside':
        // Never read: the engine records why (its row says so), whatever the file does next.
        return this.finish(key, p, { outside: true })
      case 'not_file':
        return this.forget(key, false) // a fifo or a folder swapped in: not a file
      case 'changed':
        p.peekedVersion = undefined
        return this.schedule(p, now)
      case 'error':
        if (GONE_CODES.has(peek.code)) return this.forget(key, true)
        if (TRANSIENT_CODES.has(peek.code)) {
          p.peekedVersion = undefined
          return this.schedule(p, now)
        }
        if (stable(now)) return this.finish(key, p, { unreadableReason: msg.unreadableReason(peek.code, peek.message) })
        return this.schedule(p, now)
    }
    const quiet = this.quietFor(p, now)
    const long = this.host.unfinishedQuietMs
    // Does a program still hold it open for writing? (Linux; a file left alone longer than the
    // long wait is not asked about: it would be taken anyway.)
    let writer: boolean | undefined
    if (this.host.writers.available && !this.host.polling() && quiet.byMtime < long) {
      // A walk of this folder that began after this version was first seen may answer
      // (writers.ts). Not when the peek found a newer version than the stat did: a walk of its own.
      const asked = {
        scope: this.host.realRoot(),
        ...(peek.size === p.size && peek.mtimeMs === p.mtimeMs ? { since: p.versionSeenAt } : {}),
      }
      writer = (await this.host.writers.writing([peek.realPath], asked)).get(peek.realPath)
      if (signal.aborted || this.pending.get(key) !== p) return
      now = performance.now()
    }
    const quietNow = this.quietFor(p, now)
    if (writer === true) {
      if (quietNow.byMtime >= long) return this.finish(key, p, { note: msg.stillOpenNote(quietNow.byMtime) })
      const delay = Math.min(WRITER_SAMPLE_MAX_MS, Math.max(WRITER_SAMPLE_MIN_MS, quietNow.seen / 8))
      return this.schedule(p, now, delay)
    }
    if (peek.complete === 'yes' && writer === false) return this.finish(key, p, {})
    if (peek.complete === 'no') {
      if (p.samples >= 2 && quietNow.byMtime >= long) {
        return this.finish(key, p, { note: msg.unfinishedNote(peek.missing ?? 'its end marker', quietNow.byMtime) })
      }
      return this.schedule(p, now, undefined, long)
    }
    if (stable(now)) return this.finish(key, p, {})
    this.schedule(p, now)
  }

  /**
   * Next sample of a pending file: every stabilityMs / 2, and exactly when the window (stabilityMs,
   * or `windowMs`) ends; `delay` when given.
   */
  private schedule(p: Pending, nowMono: number, delay?: number, windowMs = this.host.stabilityMs): void {
    clearTimeout(p.timer)
    if (delay === undefined) {
      const half = Math.max(10, Math.round(this.host.stabilityMs / 2))
      const remaining = p.changedAt + windowMs - nowMono
      delay = Math.max(1, Math.min(half, Math.ceil(remaining)))
    }
    p.timer = setTimeout(() => {
      p.timer = undefined
      void this.check(p.path, 'sample')
    }, delay)
  }

  /** A finished pending file: remember the version, emit the candidate. */
  private finish(
    key: string,
    p: Pending,
    o: { unreadableReason?: string; outside?: boolean; note?: string },
  ): void {
    const unreadable = o.unreadableReason !== undefined
    const outside = o.outside === true
    this.unpend(key, p)
    const em = this.emitted.get(key)
    if (em && em.size === p.size && em.mtimeMs === p.mtimeMs && em.unreadable === unreadable && em.outside === outside)
      return
    this.emitted.set(key, { size: p.size, mtimeMs: p.mtimeMs, unreadable, outside, seen: this.generation })
    const candidate: WatchCandidate = {
      ...this.describe(p),
      root: this.host.realRoot(),
      size: Math.max(0, p.size),
      mtimeMs: Math.max(0, p.mtimeMs),
      stableAt: Date.now(),
      unreadable,
      source: p.source,
    }
    if (o.unreadableReason !== undefined) candidate.unreadableReason = o.unreadableReason
    if (outside) candidate.outside = true
    if (o.note !== undefined) candidate.note = o.note
    this.host.candidate(candidate)
  }

  private readable(filePath: string, signal: AbortSignal): Promise<IoResult<void>> {
    return readable(this.host.io, filePath, signal)
  }

  /** The path is gone (or not a file): drop its records; a pending file that was gone vanished. */
  private forget(key: string, gone: boolean): void {
    const p = this.pending.get(key)
    if (p) {
      this.unpend(key, p)
      if (gone) this.emitVanished(p)
    }
    this.emitted.delete(key)
  }

  private unpend(key: string, p: Pending): void {
    clearTimeout(p.timer)
    this.pending.delete(key)
    this.host.pendingShrank(this.pending.size)
  }

  private emitVanished(p: Pending): void {
    this.host.vanished(this.describe(p))
  }

  /** The fields a candidate and a vanished file share. */
  private describe(p: Pending): WatchVanished {
    const name = path.basename(p.path)
    const kind = fileKind(name)
    return {
      folderId: this.host.folderId,
      path: p.path,
      name,
      kind,
      accepted: this.host.acceptedKinds.has(kind),
      detectedAt: p.detectedAt,
    }
  }
}
