/**
 * The worker pool that reads untrusted documents (workers/pool.ts), with a real worker thread that
 * loops, allocates without end, crashes or waits: each passes a limit and costs only its worker,
 * while this thread keeps answering.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { TaskPool, TaskError, WorkerLimitError } from '../../workers/pool'

type Fixture = {
  echo(x: unknown): unknown
  fail(message: string): never
  spin(x: null): never
  grow(x: null): never
  wait(ms: number): number
  exit(x: null): never
  pid(x: null): { threadId: number }
}

const SCRIPT = new URL('./fixture-worker.mjs', import.meta.url)
const LIMITS = { timeoutMs: 1500, maxHeapMb: 64, maxInputBytes: 1024 * 1024 }
const pools: TaskPool<Fixture>[] = []

function pool(o: { size?: number; idleMs?: number; timeoutMs?: number } = {}): TaskPool<Fixture> {
  const p = new TaskPool<Fixture>(SCRIPT, {
    limits: { ...LIMITS, timeoutMs: o.timeoutMs ?? LIMITS.timeoutMs },
    size: o.size,
    idleMs: o.idleMs,
  })
  pools.push(p)
  return p
}

afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()))
})

/** Resolves with how late a 10 ms timer fired, at worst, while `during` runs (the thread's latency). */
async function worstTimerDelay(during: Promise<unknown>): Promise<number> {
  let worst = 0
  let done = false
  void during.finally(() => (done = true)).catch(() => undefined)
  while (!done) {
    const t = performance.now()
    await new Promise((r) => setTimeout(r, 10))
    worst = Math.max(worst, performance.now() - t - 10)
  }
  return worst
}

describe('TaskPool', () => {
  it('runs a task and gives its value back, binary input included', async () => {
    const p = pool()
    expect(await p.run('echo', { a: 1, bytes: new Uint8Array([1, 2, 3]) })).toEqual({ a: 1, bytes: new Uint8Array([1, 2, 3]) })
  })

  it('ends a task that never stops at the time limit, and this thread keeps answering meanwhile', async () => {
    const p = pool({ timeoutMs: 800 })
    const spinning = p.run('spin', null)
    const worst = await worstTimerDelay(spinning)
    await expect(spinning).rejects.toMatchObject({ kind: 'timeout', message: expect.stringContaining('took longer than') })
    // The loop ran on another thread: this one's timers kept firing.
    expect(worst).toBeLessThan(400)
    // The next task gets a fresh worker.
    expect(await p.run('echo', 'after')).toBe('after')
  })

  it("holds a light task of a shared worker to its own time limit, and a heavy one to the pool's", async () => {
    // The intake worker serves a check that takes under a millisecond (5 s limit) and fingerprints (10 s).
    const p = pool({ timeoutMs: 20_000 })
    const started = performance.now()
    await expect(p.run('spin', null, { timeoutMs: 300 })).rejects.toMatchObject({ kind: 'timeout', message: expect.stringContaining('0.3 s') })
    expect(performance.now() - started).toBeLessThan(5_000)
    // A task without its own limit has the pool's: 1.2 s of work is not ended.
    expect(await p.run('wait', 1_200)).toBe(1_200)
  })

  it('ends a task that allocates without end at the memory limit', async () => {
    const p = pool({ timeoutMs: 20_000 })
    const err = await p.run('grow', null).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(WorkerLimitError)
    expect(err).toMatchObject({ kind: 'memory', message: expect.stringContaining('64 MB') })
    expect(await p.run('echo', 1)).toBe(1)
  })

  it('refuses an input over the size limit before any worker sees it', async () => {
    const p = pool()
    await expect(p.run('echo', new Uint8Array(LIMITS.maxInputBytes + 1))).rejects.toMatchObject({
      kind: 'input_too_large',
      message: expect.stringMatching(/over the 1\.0 MB Bookdrop reads/),
    })
    expect(p.workers).toBe(0)
  })

  it("gives a task's own error as TaskError and keeps the worker", async () => {
    const p = pool()
    const before = await p.run('pid', null)
    await expect(p.run('fail', 'not a PDF')).rejects.toEqual(new TaskError('not a PDF'))
    expect(await p.run('pid', null)).toEqual(before)
  })

  it('a worker that dies fails only its task', async () => {
    const p = pool()
    await expect(p.run('exit', null)).rejects.toMatchObject({ kind: 'crashed' })
    expect(await p.run('echo', 2)).toBe(2)
  })

  it('close() ends a running task at once and refuses new ones', async () => {
    const p = pool({ timeoutMs: 60_000 })
    const spinning = expect(p.run('spin', null)).rejects.toMatchObject({ kind: 'stopped' })
    const waiting = expect(p.run('echo', 'queued')).rejects.toMatchObject({ kind: 'stopped' })
    await new Promise((r) => setTimeout(r, 100))
    const t = performance.now()
    await p.close()
    expect(performance.now() - t).toBeLessThan(2000)
    await spinning
    await waiting
    await expect(p.run('echo', 3)).rejects.toMatchObject({ kind: 'stopped' })
  })

  it('an aborted signal ends its task, running or waiting', async () => {
    const p = pool({ timeoutMs: 60_000 })
    const ac = new AbortController()
    const running = p.run('spin', null, { signal: ac.signal })
    const ac2 = new AbortController()
    const queued = p.run('echo', 'x', { signal: ac2.signal })
    ac2.abort()
    await expect(queued).rejects.toMatchObject({ kind: 'aborted' })
    ac.abort()
    await expect(running).rejects.toMatchObject({ kind: 'aborted' })
    expect(await p.run('echo', 4)).toBe(4)
  })

  it('runs up to `size` tasks at once and queues the rest', async () => {
    const p = pool({ size: 2 })
    const t = performance.now()
    const all = await Promise.all([p.run('wait', 300), p.run('wait', 300), p.run('wait', 300)])
    const took = performance.now() - t
    expect(all).toEqual([300, 300, 300])
    expect(p.workers).toBe(2)
    expect(took).toBeGreaterThanOrEqual(590)
  })

  it('ends a warm worker after idleMs without work, and does not keep the process alive', async () => {
    const p = pool({ idleMs: 200 })
    await p.run('echo', 0)
    expect(p.workers).toBe(1)
    await new Promise((r) => setTimeout(r, 600))
    expect(p.workers).toBe(0)
  })
})
