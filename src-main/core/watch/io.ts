/**
 * The watcher's file-system calls: at most IO_CONCURRENCY at a time, each answered as a value
 * (`{ ok, value }` or `{ ok: false, code, message }`) instead of a throw, so the callers branch on
 * error codes without try/catch. A call queued when its run's signal is aborted is not made.
 */
import type { Stats } from 'node:fs'
import * as fsp from 'node:fs/promises'
import { decodeFsName, fsPath } from '../names'
import { errnoCode } from '../util'
import type { DirEntry, WatchFs } from './types'

/** Concurrent stat/access/readdir calls of one watcher. */
export const IO_CONCURRENCY = 32

/** The path is not there (any more). */
export const GONE_CODES: ReadonlySet<string> = new Set(['ENOENT', 'ENOTDIR'])
/** Try again later; says nothing about the file. */
export const TRANSIENT_CODES: ReadonlySet<string> = new Set(['EMFILE', 'ENFILE', 'EAGAIN', 'EINTR'])

export type IoResult<T> = { ok: true; value: T } | { ok: false; code: string; message: string }

/**
 * The real calls. Folders are read as bytes, so a name that is not UTF-8 is found (names.ts keeps
 * its bytes in the path string), and every path goes back to the file system as its exact bytes.
 */
export const realFs: WatchFs = {
  stat: (p) => fsp.stat(fsPath(p)),
  access: (p, mode) => fsp.access(fsPath(p), mode),
  readdir: async (p) =>
    (await fsp.readdir(fsPath(p), { withFileTypes: true, encoding: 'buffer' })).map(
      (d): DirEntry => ({
        name: decodeFsName(d.name),
        isFile: () => d.isFile(),
        isDirectory: () => d.isDirectory(),
        isSymbolicLink: () => d.isSymbolicLink(),
      }),
    ),
}

export function errorCode(e: unknown): string {
  return errnoCode(e) ?? 'UNKNOWN'
}

export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e)
}

/** What a call that was not made (its run ended while it waited) answers. */
const ABORTED: IoResult<never> = { ok: false, code: 'ABORT_ERR', message: 'the watch run ended' }

export class WatchIo {
  private active = 0
  private readonly waiting: Array<() => void> = []

  constructor(
    readonly fs: WatchFs,
    private readonly max = IO_CONCURRENCY,
  ) {}

  stat(p: string, signal?: AbortSignal): Promise<IoResult<Stats>> {
    return this.call(() => this.fs.stat(p), signal)
  }

  access(p: string, mode: number, signal?: AbortSignal): Promise<IoResult<void>> {
    return this.call(() => this.fs.access(p, mode), signal)
  }

  readdir(p: string, signal?: AbortSignal): Promise<IoResult<DirEntry[]>> {
    return this.call(() => this.fs.readdir(p), signal)
  }

  /** Any other file-system work of the watcher (a peek at a file), under the same limit. */
  run<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<IoResult<T>> {
    return this.call(fn, signal)
  }

  private async call<T>(fn: () => Promise<T>, signal: AbortSignal | undefined): Promise<IoResult<T>> {
    while (this.active >= this.max) await new Promise<void>((resolve) => this.waiting.push(resolve))
    if (signal?.aborted) {
      this.waiting.shift()?.()
      return ABORTED
    }
    this.active++
    try {
      return { ok: true, value: await fn() }
    } catch (e) {
      return { ok: false, code: errorCode(e), message: errorMessage(e) }
    } finally {
      this.active--
      this.waiting.shift()?.()
    }
  }
}
