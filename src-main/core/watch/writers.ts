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
/** At most this many descriptor links are read in one walk. */
export const MAX_LINKS = 200_000
/** A slice of a walk runs at most this long before yielding. */
const SLICE_MS = 4

export interface WriterProbe {
  /** The probe can answer here (Linux with a readable /proc). */
  readonly available: boolean
  /**
   * For each real path asked about: true when some process holds it open for writing, false when
   * none that Bookdrop can see does, undefined when it could not tell.
   */
  writing(realPaths: readonly string[]): Promise<Map<string, boolean | undefined>>
}

/** A probe that never knows (other systems, polling mode, tests that want the settle time). */
export const NO_WRITER_PROBE: WriterProbe = {
  available: false,
  writing: async (paths) => new Map(paths.map((p) => [p, undefined])),
}

/** The key of a path: its exact bytes, as a binary string (non-UTF-8 names compare exactly). */
function keyOf(realPath: string, toBytes: (s: string) => Buffer): string {
  return toBytes(realPath).toString('latin1')
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
  private walking = false
  private timer: NodeJS.Timeout | null = null
  /** The last walk: when, what it looked for, what it found (null: it could not tell). */
  private last: { at: number; keys: Set<string>; found: Map<string, Seen> | null } | null = null

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

  async writing(realPaths: readonly string[]): Promise<Map<string, boolean | undefined>> {
    const out = new Map<string, boolean | undefined>()
    if (!this.available) {
      for (const p of realPaths) out.set(p, undefined)
      return out
    }
    await Promise.all(
      realPaths.map(async (p) => {
        const key = keyOf(p, this.toBytes)
        // A writer seen before: does it still hold the file for writing? (one readlink, one read)
        const seen = this.known.get(key)
        if (seen && this.stillWriting(seen, key)) return out.set(p, true)
        this.known.delete(key)
        // A writer that let go just now: the last walk (which saw it) is no answer any more.
        const w = await this.fromWalk(key, seen !== undefined)
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
  private fromWalk(key: string, fresh: boolean): Promise<Seen | null | undefined> {
    const last = this.last
    if (!fresh && last && performance.now() - last.at < WALK_REUSE_MS && last.keys.has(key)) {
      return Promise.resolve(last.found === null ? undefined : (last.found.get(key) ?? null))
    }
    return new Promise((resolve) => {
      this.asked.set(key, [...(this.asked.get(key) ?? []), resolve])
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
    let found: Map<string, Seen> | null = null
    try {
      found = await this.walkNow(keys)
    } catch {
      found = null
    } finally {
      this.walking = false
    }
    this.last = { at: performance.now(), keys, found }
    for (const [key, waiters] of asked) {
      const answer = found === null ? undefined : (found.get(key) ?? null)
      for (const w of waiters) w(answer)
    }
    if (this.asked.size > 0) this.schedule()
  }

  private async walkNow(wanted: Set<string>): Promise<Map<string, Seen> | null> {
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
        } catch {
          continue
        }
        // Cheap filter first: a file link starts with '/' and is one of the wanted paths.
        if (link[0] !== 0x2f) continue
        const key = link.toString('latin1')
        if (!wanted.has(key) || found.has(key)) continue
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
