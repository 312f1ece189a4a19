/**
 * Helpers for the folder-watcher tests: real temp folders, real chokidar, short timings, and a
 * recorder of everything a watcher emits.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { FolderWatcher } from '../../src-main/core/watch'
import type {
  FolderWatcherConfig,
  FolderWatcherDeps,
  WatchCandidate,
  WatchStatus,
  WatchVanished,
} from '../../src-main/core/watch'

export const STABILITY_MS = 150
/** Long enough that nothing which should have happened is still on its way. */
export const SETTLE_MS = STABILITY_MS * 4

export const isRoot = process.getuid?.() === 0

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

const dirs: string[] = []
const watchers: FolderWatcher[] = []

/** A fresh temp folder, removed in cleanup(). */
export async function tempDir(prefix = 'bookdrop-watch-'): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), prefix))
  dirs.push(dir)
  return dir
}

/** Stops every watcher and removes every temp folder made by this file's tests. */
export async function cleanup(): Promise<void> {
  await Promise.all(watchers.splice(0).map((w) => w.stop()))
  for (const dir of dirs.splice(0)) {
    await fs.chmod(dir, 0o700).catch(() => undefined)
    await fs.rm(dir, { recursive: true, force: true })
  }
}

export class Recorder {
  readonly candidates: WatchCandidate[] = []
  readonly vanished: WatchVanished[] = []
  readonly statuses: WatchStatus[] = []
  /** Everything, in order, for failure messages. */
  readonly log: string[] = []

  constructor(w: FolderWatcher) {
    w.on('candidate', (c) => {
      this.candidates.push(c)
      this.log.push(`candidate ${c.name} ${c.size}`)
    })
    w.on('vanished', (v) => {
      this.vanished.push(v)
      this.log.push(`vanished ${v.name}`)
    })
    w.on('status', (s) => {
      this.statuses.push(s)
      this.log.push(`status ${s.state}${s.message ? `: ${s.message}` : ''}`)
    })
  }

  named(name: string): WatchCandidate[] {
    return this.candidates.filter((c) => c.name === name)
  }

  names(): string[] {
    return this.candidates.map((c) => c.name).sort()
  }

  get state(): string | undefined {
    return this.statuses.at(-1)?.state
  }

  /** Polls `pred` until it holds; fails with the event log otherwise. */
  async waitFor(pred: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
    const until = Date.now() + timeoutMs
    while (!pred()) {
      if (Date.now() > until)
        throw new Error(`timed out waiting for ${what}; events: ${this.log.join(' | ')}`)
      await sleep(10)
    }
  }
}

/** A watcher on `dir` with test timings (stability 150 ms, no periodic rescan unless asked). */
export function makeWatcher(
  dir: string,
  overrides: Partial<FolderWatcherConfig> = {},
  deps: FolderWatcherDeps = {},
): { w: FolderWatcher; rec: Recorder } {
  const w = new FolderWatcher(
    {
      id: 'folder-1',
      path: dir,
      recursive: false,
      acceptedKinds: ['pdf', 'jpg', 'png', 'csv'],
      usePolling: false,
      stabilityMs: STABILITY_MS,
      rescanIntervalMs: 60_000,
      recoverInitialMs: 50,
      recoverMaxMs: 200,
      ...overrides,
    },
    deps,
  )
  watchers.push(w)
  return { w, rec: new Recorder(w) }
}

/**
 * A temp folder holding `files` (name → content), watched and started; resolves once each file was
 * reported (the usual opening of a test about what happens next).
 */
export async function watchedWith(
  files: Record<string, string>,
  overrides: Partial<FolderWatcherConfig> = {},
): Promise<{ dir: string; w: FolderWatcher; rec: Recorder }> {
  const dir = await tempDir()
  for (const [name, content] of Object.entries(files)) await fs.writeFile(path.join(dir, name), content)
  const { w, rec } = makeWatcher(dir, overrides)
  await w.start()
  const n = Object.keys(files).length
  await rec.waitFor(() => rec.candidates.length === n, `the ${n} file(s) already there`)
  return { dir, w, rec }
}

/**
 * Writes `chunks` chunks of `chunkSize` bytes to `file`, one every `everyMs`, from a separate
 * process (so a busy test process can't make the writer look paused). Resolves with the time the
 * file was closed.
 */
export function writeSlowly(
  file: string,
  chunks: number,
  chunkSize: number,
  everyMs: number,
): Promise<number> {
  const code = `
    const fs = require('node:fs')
    const fd = fs.openSync(process.argv[1], 'w')
    let i = 0
    const t = setInterval(() => {
      fs.writeSync(fd, Buffer.alloc(${chunkSize}, 97))
      if (++i === ${chunks}) {
        clearInterval(t)
        fs.closeSync(fd)
        process.stdout.write(String(Date.now()))
      }
    }, ${everyMs})`
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', code, file], { stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    child.stdout.on('data', (d: Buffer) => (out += d.toString()))
    child.on('error', reject)
    child.on('exit', (codeOrNull) => {
      if (codeOrNull === 0) resolve(Number(out))
      else reject(new Error(`slow writer exited with ${codeOrNull}`))
    })
  })
}

/** Counts of the resource kinds a watcher could leak (timers, fs.watch, fs.watchFile). */
export function leakableResources(): Record<string, number> {
  const counts: Record<string, number> = { Timeout: 0, FSEventWrap: 0, StatWatcher: 0 }
  for (const r of process.getActiveResourcesInfo()) if (r in counts) counts[r] = (counts[r] ?? 0) + 1
  return counts
}
