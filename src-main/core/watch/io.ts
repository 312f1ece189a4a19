/**
 * The watcher's file-system calls: at most IO_CONCURRENCY at a time, each answered as a value
 * (`{ ok, value }` or `{ ok: false, code, message }`) instead of a throw, so the callers branch on
 * error codes without try/catch. A call queued when its run's signal is aborted is not made.
 */
import type { Dirent, Stats } from 'node:fs'
import * as fsp from 'node:fs/promises'
import { errnoCode } from '../util'
import type { WatchFs } from './types'

/** Concurrent stat/access/readdir calls of one watcher. */
export const IO_CONCURRENCY = 32

/** The path is not there (any more). */
export const GONE_CODES: ReadonlySet<string> = new Set(['ENOENT', 'ENOTDIR'])
/** Try again later; says nothing about the file. */
export const TRANSIENT_CODES: ReadonlySet<string> = new Set(['EMFILE', 'ENFILE', 'EAGAIN', 'EINTR'])

export type IoResult<T> = { ok: true; value: T } | { ok: false; code: string; message: string }

export const realFs: WatchFs = {
  stat: (p) => fsp.stat(p),
  access: (p, mode) => fsp.access(p, mode),
  readdir: (p) => fsp.readdir(p, { withFileTypes: true }),
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

  readdir(p: string, signal?: AbortSignal): Promise<IoResult<Dirent[]>> {
    return this.call(() => this.fs.readdir(p), signal)
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
