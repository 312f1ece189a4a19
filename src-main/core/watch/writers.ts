/**
 * Is a file still open for writing by some program? Node's fs.watch (and so chokidar) does not
 * report a close, so on Linux Bookdrop asks /proc: a process holds a file open for writing when one
 * of its descriptors (`/proc/<pid>/fd/<n>`, a link to the file) has write access in its flags
 * (`/proc/<pid>/fdinfo/<n>`, O_WRONLY or O_RDWR).
 *
 * Cost, bounded:
 * - one walk of /proc answers for every file asked about at the time (questions are gathered for a
 *   few ms, those asked while a walk runs go to the next one, and a walk's answer is reused for
 *   WALK_REUSE_MS);
 * - a question may name its *scope* (the watched folder's real path) and *since* (when Bookdrop
 *   first saw this version of the file, by its own monotonic clock): the walk then also notes the
 *   writers of every other file in that folder, and a later question about a file of that folder
 *   whose version was seen before the walk began is answered from it, for up to SCOPED_REUSE_MS. A
 *   program that wrote that version had opened the file before it was seen, so if it still held
 *   it, the walk saw it. (Not the file's mtime: FAT and HFS+ stamp whole or even seconds, and a
 *   share stamps by its server's clock.) Three hundred receipts saved at once cost a few walks
 *   instead of one per sample (a walk reads every descriptor of every process: thousands on a
 *   desktop with a browser open);
 * - a writer found is remembered by (pid, fd): while it still holds the file, the next question costs
 *   one readlink and one small read instead of a walk;
 * - a walk reads at most MAX_LINKS descriptor links, in slices that yield to the event loop, and
 *   gives up (answer: unknown) past that.
 * Only processes this user may look into are seen (others' /proc/<pid>/fd cannot be read): a file
 * written by another user's program or over a network share has no writer Bookdrop can see, and
 * the end markers and settle time decide (stability.ts).
 *
 * Elsewhere (macOS, Windows) `available` is false and every answer is unknown.
 */
import { readFileSync, readdirSync, readlinkSync } from 'node:fs'

/** A walk's answer is reused for this long. */
export const WALK_REUSE_MS = 40
/** A walk's answer for a file of its scope, seen before the walk began, is reused for this long. */
export const SCOPED_REUSE_MS = 1_000
/** At most this many descriptor links are read in one walk. */
export const MAX_LINKS = 200_000
/** A slice of a walk runs at most this long before yielding. */
const SLICE_MS = 4

export interface WriterProbe {
  /** The probe can answer here (Linux with a readable /proc). */
  readonly available: boolean
  /**
   * For each real path asked about: true when some process holds it open for writing, false when
   * none that Bookdrop can see does, undefined when it could not tell. `o.scope` (a watched
   * folder's real path) and `o.since` (when these versions were first seen) let a recent walk of
   * that folder answer (see the cost notes above); without them every question gets a walk of its own.
   */
  writing(realPaths: readonly string[], o?: WritingQuestion): Promise<Map<string, boolean | undefined>>
}

export interface WritingQuestion {
  /** The real path of the folder the files lie in. */
  scope?: string
  /**
   * performance.now() by which every version asked about had been written: when a stat first
   * returned it. Never a file's mtime (coarse or foreign clocks).
   */
  since?: number
}

/** The key of a path: its exact bytes, as a binary string (non-UTF-8 names compare exactly). */
function keyOf(realPath: string, toBytes: (s: string) => Buffer): string {
  return toBytes(realPath).toString('latin1')
}

/** A folder's key as a prefix of the keys of the files below it. */
function scopeKey(folderKey: string): string {
  return folderKey.endsWith('/') ? folderKey : `${folderKey}/`
}

interface Seen {
  pid: string
  fd: string
}

/** O_ACCMODE of a descriptor's flags (fdinfo "flags:" is octal): 1 O_WRONLY, 2 O_RDWR. */
function writableFlags(fdinfo: string): boolean {
  const m = /^flags:\s*([0-7]+)/m.exec(fdinfo)
  if (!m) return false
  const accmode = parseInt(m[1]!, 8) & 3
  return accmode === 1 || accmode === 2
}

/** Questions gathered for this long go to one walk of /proc together. */
const GATHER_MS = 3

export class ProcWriterProbe implements WriterProbe {
  readonly available: boolean
  private readonly known = new Map<string, Seen>()
  /** Files asked about that wait for the next walk, with whoever waits for each answer. */
  private readonly asked = new Map<string, Array<(w: Seen | null | undefined) => void>>()
  /** The scopes (folder key + '/') of the questions waiting for the next walk. */
  private readonly askedScopes = new Set<string>()
  private walking = false
  private timer: NodeJS.Timeout | null = null
  /**
   * The last walk: when it began and ended (performance.now()), what it looked for (files and
   * folder scopes), what it found (null: it could not tell).
   */
  private last: {
    at: number
    startedAt: number
    keys: Set<string>
    scopes: string[]
    found: Map<string, Seen> | null
  } | null = null
  /** Walks of /proc done so far (the bench and tests read it). */
  walks = 0

  constructor(
    private readonly toBytes: (s: string) => Buffer,
    private readonly proc = '/proc',
  ) {
    let ok = false
    if (process.platform === 'linux') {
      try {
        readdirSync(`${proc}/self/fd`)
        ok = true
      } catch {
        ok = false
      }
    }
    this.available = ok
  }

  async writing(realPaths: readonly string[], o: WritingQuestion = {}): Promise<Map<string, boolean | undefined>> {
    const out = new Map<string, boolean | undefined>()
    if (!this.available) {
      for (const p of realPaths) out.set(p, undefined)
      return out
    }
    const scope = o.scope === undefined ? undefined : scopeKey(keyOf(o.scope, this.toBytes))
    await Promise.all(
      realPaths.map(async (p) => {
        const key = keyOf(p, this.toBytes)
        // A writer seen before: does it still hold the file for writing? (one readlink, one read)
        const seen = this.known.get(key)
        if (seen && this.stillWriting(seen, key)) return out.set(p, true)
        this.known.delete(key)
        // A writer that let go just now: the last walk (which saw it) is no answer any more.
        const w = await this.fromWalk(key, seen !== undefined, scope, o.since)
        if (w) this.known.set(key, w)
        out.set(p, w === undefined ? undefined : w !== null)
      }),
    )
    // Forget writers of files nobody asks about any more (bounded memory).
    if (this.known.size > 1024) this.known.clear()
    return out
  }

  private stillWriting(seen: Seen, key: string): boolean {
    try {
      const link = readlinkSync(`${this.proc}/${seen.pid}/fd/${seen.fd}`, { encoding: 'buffer' })
      if (link.toString('latin1') !== key) return false
      return writableFlags(readFileSync(`${this.proc}/${seen.pid}/fdinfo/${seen.fd}`, 'latin1'))
    } catch {
      return false
    }
  }

  /**
   * The writer of one file (null: none seen; undefined: cannot tell), from a walk of /proc: the last
   * one if it looked for this file a moment ago, else the next one, which every question asked
   * meanwhile shares.
   */
  private fromWalk(key: string, fresh: boolean, scope: string | undefined, since: number | undefined): Promise<Seen | null | undefined> {
    const last = this.last
    if (!fresh && last) {
      const age = performance.now() - last.at
      const recent = age < WALK_REUSE_MS && last.keys.has(key)
      const scoped =
        age < SCOPED_REUSE_MS &&
        since !== undefined &&
        since < last.startedAt &&
        last.scopes.some((s) => key.startsWith(s))
      if (recent || scoped) return Promise.resolve(last.found === null ? undefined : (last.found.get(key) ?? null))
    }
    return new Promise((resolve) => {
      this.asked.set(key, [...(this.asked.get(key) ?? []), resolve])
      if (scope !== undefined && key.startsWith(scope)) this.askedScopes.add(scope)
      this.schedule()
    })
  }

  private schedule(): void {
    if (this.walking || this.timer) return
    this.timer = setTimeout(() => {
      this.timer = null
      void this.walkAsked()
    }, GATHER_MS)
  }

  private async walkAsked(): Promise<void> {
    this.walking = true
    const asked = new Map(this.asked)
    this.asked.clear()
    const keys = new Set(asked.keys())
    const scopes = [...this.askedScopes]
    this.askedScopes.clear()
    const startedAt = performance.now()
    let found: Map<string, Seen> | null = null
    try {
      this.walks++
      found = await this.walkNow(keys, scopes)
    } catch {
      found = null
    } finally {
      this.walking = false
    }
    this.last = { at: performance.now(), startedAt, keys, scopes, found }
    for (const [key, waiters] of asked) {
      const answer = found === null ? undefined : (found.get(key) ?? null)
      for (const w of waiters) w(answer)
    }
    if (this.asked.size > 0) this.schedule()
  }

  /** Writers of the `wanted` files and of every file under one of `scopes` (keys ending in '/'). */
  private async walkNow(wanted: Set<string>, scopes: readonly string[]): Promise<Map<string, Seen> | null> {
    const found = new Map<string, Seen>()
    let pids: string[]
    try {
      pids = readdirSync(this.proc).filter((d) => /^\d+$/.test(d))
    } catch {
      return null
    }
    let links = 0
    let sliceStart = performance.now()
    for (const pid of pids) {
      if (performance.now() - sliceStart > SLICE_MS) {
        await new Promise((r) => setImmediate(r))
        sliceStart = performance.now()
      }
      let fds: string[]
      try {
        fds = readdirSync(`${this.proc}/${pid}/fd`)
      } catch {
        continue // another user's process, or gone
      }
      for (const fd of fds) {
        if (++links > MAX_LINKS) return null
        let link: Buffer
        try {
          link = readlinkSync(`${this.proc}/${pid}/fd/${fd}`, { encoding: 'buffer' })
        } catch (e) {
          // Closed meanwhile: the next one. Refused (a process that may not be looked into, though
          // its list of descriptors could be read): so is every other one of it, each a thrown error.
          if ((e as NodeJS.ErrnoException).code === 'EACCES' || (e as NodeJS.ErrnoException).code === 'EPERM') break
          continue
        }
        // Cheap filter first: a file link starts with '/' and is one of the wanted paths.
        if (link[0] !== 0x2f) continue
        const key = link.toString('latin1')
        if (found.has(key) || !(wanted.has(key) || scopes.some((s) => key.startsWith(s)))) continue
        try {
          if (writableFlags(readFileSync(`${this.proc}/${pid}/fdinfo/${fd}`, 'latin1'))) found.set(key, { pid, fd })
        } catch {
          // closed meanwhile
        }
      }
    }
    return found
  }
}
