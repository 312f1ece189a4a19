/**
 * Is a file still open for writing by some program? Node's fs.watch (and so chokidar) does not
 * report a close, so on Linux Bookdrop asks /proc: a process holds a file open for writing when one
 * of its descriptors (`/proc/<pid>/fd/<n>`, a link to the file) has write access in its flags
 * (`/proc/<pid>/fdinfo/<n>`, O_WRONLY or O_RDWR).
 *
 * Cost, bounded:
 * - one walk of /proc answers for every file asked about at the time (calls made while a walk runs
 *   share it, and its answer is reused for WALK_REUSE_MS);
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

export class ProcWriterProbe implements WriterProbe {
  readonly available: boolean
  private readonly known = new Map<string, Seen>()
  private walkInFlight: Promise<Map<string, Seen> | null> | null = null
  private walkWanted = new Set<string>()
  private last: { at: number; wanted: Set<string>; found: Map<string, Seen> | null } | null = null

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
    const keys = new Map(realPaths.map((p) => [p, keyOf(p, this.toBytes)]))
    const unresolved: string[] = []
    for (const [p, key] of keys) {
      // A writer seen before: does it still hold the file for writing? (one readlink, one read)
      const seen = this.known.get(key)
      if (seen && this.stillWriting(seen, key)) out.set(p, true)
      else {
        this.known.delete(key)
        unresolved.push(p)
      }
    }
    if (unresolved.length === 0) return out
    const wanted = new Set(unresolved.map((p) => keys.get(p)!))
    const found = await this.walk(wanted)
    for (const p of unresolved) {
      const key = keys.get(p)!
      if (found === null) {
        out.set(p, undefined)
        continue
      }
      const w = found.get(key)
      if (w) this.known.set(key, w)
      out.set(p, w !== undefined)
    }
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

  /** One walk of /proc for the files wanted (shared by callers meanwhile, reused for a moment). */
  private async walk(wanted: Set<string>): Promise<Map<string, Seen> | null> {
    const last = this.last
    if (last && performance.now() - last.at < WALK_REUSE_MS && [...wanted].every((k) => last.wanted.has(k))) {
      return last.found
    }
    if (this.walkInFlight) {
      // A walk is on its way: if it looks for these files too, its answer will do.
      if ([...wanted].every((k) => this.walkWanted.has(k))) return this.walkInFlight
      await this.walkInFlight.catch(() => null)
      return this.walk(wanted)
    }
    this.walkWanted = wanted
    const run = this.walkNow(wanted)
    this.walkInFlight = run
    try {
      const found = await run
      this.last = { at: performance.now(), wanted, found }
      return found
    } finally {
      this.walkInFlight = null
    }
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
