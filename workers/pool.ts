/**
 * Untrusted documents are read away from the app (design.md §1): a task that parses a document's
 * content (a PDF's text, an e-mail, an image) runs in a worker thread with a time limit, a memory
 * limit (`resourceLimits`) and a size limit on its input, so a hostile file can cost a worker, never
 * the thread that answers the window, the web host or the emulator.
 *
 *   const pool = new TaskPool<DocumentTasks>('documents', { limits: DOCUMENT_LIMITS })
 *   const text = await pool.run('pdfText', bytes)        // WorkerLimitError past a limit
 *   await pool.close()                                    // ends every worker (a stop ends a task)
 *
 * A worker is started on first use, kept warm for the next task (a fresh worker costs tens of ms)
 * and ended after `idleMs` without work; one task at a time per worker, at most `size` workers.
 * A worker that passes a limit is terminated (V8 stops even a tight loop) and the next task gets a
 * new one. The worker scripts are built files (workers/entries.json, built by `npm run build` into
 * out/node/workers and out/main/workers; locate.ts finds them), so the same code runs in tests,
 * the headless mode, the web host and the desktop app.
 */
import { Worker } from 'node:worker_threads'
import { workerScript } from './locate'

/** The functions a worker entry serves: each takes one structured-clonable input. */
export type TaskTable = Record<string, (input: never) => unknown>

export interface WorkerLimits {
  /** Wall time of one task, ms (from when a worker takes it). */
  timeoutMs: number
  /** V8 old-generation heap of the worker, MB (`resourceLimits.maxOldGenerationSizeMb`). */
  maxHeapMb: number
  /** Largest input accepted, bytes (the sum of its binary parts and strings). */
  maxInputBytes: number
  /**
   * V8 young generation of the worker, MB (default: an eighth of maxHeapMb, 4 to 32). A worker that
   * runs many small tasks in a long session keeps it small: V8 grows it with the allocation rate,
   * and what it grew to stays resident.
   */
  maxYoungMb?: number
}

export type LimitKind = 'timeout' | 'memory' | 'input_too_large' | 'crashed' | 'stopped' | 'aborted'

/** A task that did not finish within its limits, or whose worker failed; `message` is for people. */
export class WorkerLimitError extends Error {
  override readonly name = 'WorkerLimitError'
  constructor(
    readonly kind: LimitKind,
    message: string,
  ) {
    super(message)
  }
}

/** An error the task itself threw (bad input it detected): not a limit. */
export class TaskError extends Error {
  override readonly name = 'TaskError'
}

export interface PoolOptions {
  limits: WorkerLimits
  /** Workers at most (default 1). */
  size?: number
  /** A warm worker without work is ended after this long, ms (default 10 s). */
  idleMs?: number
}

type Reply = { id: number; ok: true; value: unknown } | { id: number; ok: false; message: string }

interface Pending {
  task: string
  input: unknown
  /** This task's wall-time limit, ms. */
  timeoutMs: number
  resolve(v: unknown): void
  reject(e: Error): void
  signal?: AbortSignal
  onAbort?: () => void
}

interface Slot {
  worker: Worker
  busy: Pending | null
  /** The task's deadline timer, or the idle timer while free. */
  timer: NodeJS.Timeout | null
  /** Set when this slot ends a task itself (limit, abort, stop): the exit is then expected. */
  ending: { kind: LimitKind; message: string } | null
  exited: Promise<void>
  id: number
}

/** Bytes an input holds (binary parts and strings), without copying anything. */
export function inputBytes(v: unknown, depth = 0): number {
  if (v == null || depth > 8) return 0
  if (typeof v === 'string') return v.length
  if (ArrayBuffer.isView(v)) return v.byteLength
  if (v instanceof ArrayBuffer) return v.byteLength
  if (Array.isArray(v)) return v.reduce<number>((n, x) => n + inputBytes(x, depth + 1), 0)
  if (typeof v === 'object') return Object.values(v).reduce<number>((n, x) => n + inputBytes(x, depth + 1), 0)
  return 0
}

const MB = 1024 * 1024

function sizeText(bytes: number): string {
  return bytes >= MB ? `${(bytes / MB).toFixed(bytes >= 10 * MB ? 0 : 1)} MB` : `${Math.ceil(bytes / 1024)} KB`
}

export class TaskPool<T extends TaskTable> {
  private readonly slots: Slot[] = []
  private readonly waiting: Pending[] = []
  private readonly size: number
  private readonly idleMs: number
  private closed = false
  private nextId = 1

  constructor(
    /** A name of workers/entries.json, or (tests) the URL of a worker script. */
    private readonly entry: string | URL,
    private readonly opts: PoolOptions,
  ) {
    this.size = Math.max(1, opts.size ?? 1)
    this.idleMs = opts.idleMs ?? 10_000
  }

  get limits(): WorkerLimits {
    return this.opts.limits
  }

  /** Workers alive now (tests and figures). */
  get workers(): number {
    return this.slots.length
  }

  /**
   * Runs `task` on `input` in a worker. Rejects with WorkerLimitError past a limit, when the
   * signal aborts or the pool closes, and with TaskError when the task threw.
   */
  run<K extends keyof T & string>(
    task: K,
    input: Parameters<T[K]>[0],
    /**
     * `maxInputBytes`, `timeoutMs`: this task's own limits, for a task whose input is several
     * documents, or a lighter task of a worker that serves two (the intake worker's content check).
     */
    o: { signal?: AbortSignal; maxInputBytes?: number; timeoutMs?: number } = {},
  ): Promise<Awaited<ReturnType<T[K]>>> {
    if (this.closed) return Promise.reject(new WorkerLimitError('stopped', 'Bookdrop is stopping.'))
    const size = inputBytes(input)
    const max = o.maxInputBytes ?? this.opts.limits.maxInputBytes
    if (size > max) {
      return Promise.reject(
        new WorkerLimitError('input_too_large', `The document is ${sizeText(size)}, over the ${sizeText(max)} Bookdrop reads.`),
      )
    }
    if (o.signal?.aborted) return Promise.reject(new WorkerLimitError('aborted', 'Cancelled.'))
    return new Promise((resolve, reject) => {
      const p: Pending = {
        task,
        input,
        timeoutMs: o.timeoutMs ?? this.opts.limits.timeoutMs,
        resolve: resolve as (v: unknown) => void,
        reject,
        signal: o.signal,
      }
      if (o.signal) {
        p.onAbort = () => this.abort(p)
        o.signal.addEventListener('abort', p.onAbort, { once: true })
      }
      this.waiting.push(p)
      this.dispatch()
    })
  }

  /** Ends every worker; tasks running or waiting reject with 'stopped'. */
  async close(): Promise<void> {
    this.closed = true
    for (const p of this.waiting.splice(0)) this.settle(p, new WorkerLimitError('stopped', 'Bookdrop is stopping.'))
    await Promise.all(this.slots.map((s) => this.end(s, 'stopped', 'Bookdrop is stopping.')))
  }

  private dispatch(): void {
    while (this.waiting.length > 0) {
      let slot = this.slots.find((s) => !s.busy && !s.ending)
      if (!slot) {
        if (this.slots.length >= this.size) return
        slot = this.spawn()
      }
      const p = this.waiting.shift()!
      this.start(slot, p)
    }
  }

  private spawn(): Slot {
    const worker = new Worker(typeof this.entry === 'string' ? workerScript(this.entry) : this.entry, {
      resourceLimits: {
        maxOldGenerationSizeMb: this.opts.limits.maxHeapMb,
        maxYoungGenerationSizeMb:
          this.opts.limits.maxYoungMb ?? Math.max(4, Math.min(32, Math.floor(this.opts.limits.maxHeapMb / 8))),
      },
      // The worker's console is not the app's log: a document must not write into it.
      stdout: true,
      stderr: true,
    })
    worker.stdout.resume()
    worker.stderr.resume()
    let exitedResolve!: () => void
    const slot: Slot = {
      worker,
      busy: null,
      timer: null,
      ending: null,
      exited: new Promise<void>((r) => (exitedResolve = r)),
      id: this.nextId++,
    }
    worker.on('message', (m: Reply) => this.onReply(slot, m))
    worker.on('error', (e: Error & { code?: string }) => {
      // Out of memory (ERR_WORKER_OUT_OF_MEMORY) or an uncaught error: the worker is ending.
      if (!slot.ending) {
        slot.ending =
          e.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? { kind: 'memory', message: `Reading the document needed more than ${this.opts.limits.maxHeapMb} MB of memory.` }
            : { kind: 'crashed', message: 'The document reader stopped unexpectedly.' }
      }
    })
    worker.on('exit', () => {
      exitedResolve()
      const i = this.slots.indexOf(slot)
      if (i >= 0) this.slots.splice(i, 1)
      if (slot.timer) clearTimeout(slot.timer)
      const p = slot.busy
      slot.busy = null
      if (p) {
        const why = slot.ending ?? { kind: 'crashed' as const, message: 'The document reader stopped unexpectedly.' }
        this.settle(p, new WorkerLimitError(why.kind, why.message))
      }
      if (!this.closed) this.dispatch()
    })
    this.slots.push(slot)
    return slot
  }

  private start(slot: Slot, p: Pending): void {
    if (slot.timer) clearTimeout(slot.timer)
    slot.busy = p
    slot.worker.ref()
    const seconds = p.timeoutMs / 1000
    slot.timer = setTimeout(
      () => void this.end(slot, 'timeout', `Reading the document took longer than ${seconds < 1 ? seconds : Math.round(seconds)} s.`),
      p.timeoutMs,
    )
    try {
      slot.worker.postMessage({ id: slot.id, task: p.task, input: p.input })
    } catch (e) {
      // An input that cannot be cloned: the task never started.
      slot.busy = null
      clearTimeout(slot.timer)
      this.idle(slot)
      this.settle(p, new TaskError(`The document could not be handed to the reader: ${(e as Error).message}`))
    }
  }

  private onReply(slot: Slot, m: Reply): void {
    const p = slot.busy
    if (!p || slot.ending) return
    slot.busy = null
    if (slot.timer) clearTimeout(slot.timer)
    this.idle(slot)
    this.settle(p, m.ok ? null : new TaskError(m.message), m.ok ? m.value : undefined)
    this.dispatch()
  }

  /** A free worker waits for the next task, unreferenced, and ends after idleMs. */
  private idle(slot: Slot): void {
    slot.worker.unref()
    slot.timer = setTimeout(() => void this.end(slot, 'stopped', 'idle'), this.idleMs)
    slot.timer.unref()
  }

  private abort(p: Pending): void {
    const i = this.waiting.indexOf(p)
    if (i >= 0) {
      this.waiting.splice(i, 1)
      this.settle(p, new WorkerLimitError('aborted', 'Cancelled.'))
      return
    }
    const slot = this.slots.find((s) => s.busy === p)
    if (slot) void this.end(slot, 'aborted', 'Cancelled.')
  }

  private async end(slot: Slot, kind: LimitKind, message: string): Promise<void> {
    if (!slot.ending) slot.ending = { kind, message }
    if (slot.timer) clearTimeout(slot.timer)
    await slot.worker.terminate().catch(() => undefined)
    await slot.exited
  }

  private settle(p: Pending, error: Error | null, value?: unknown): void {
    if (p.signal && p.onAbort) p.signal.removeEventListener('abort', p.onAbort)
    if (error) p.reject(error)
    else p.resolve(value)
  }
}
