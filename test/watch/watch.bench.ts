/**
 * Folder-watcher figures (not a test):
 *   node --expose-gc --import tsx test/watch/watch.bench.ts [files=20000] [filesPerFolder=1000]
 *
 * 1. Detection latency, default stability window (300 ms): from a file's close (writeFile
 *    resolved) to its candidate, for files written one by one and for a burst written at once.
 * 2. Initial scan of N existing files: time to start() and until every file is a candidate, peak
 *    RSS growth and heap.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { FolderWatcher } from '../../src-main/core/watch'

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))
const MB = 1024 * 1024

function pct(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? Number.NaN
}

async function latency(label: string, count: number, gapMs: number, size: number): Promise<void> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'bookdrop-bench-'))
  const w = new FolderWatcher({
    id: 'bench',
    path: dir,
    recursive: false,
    acceptedKinds: ['pdf'],
    usePolling: false,
  })
  const closedAt = new Map<string, number>()
  const lat: number[] = []
  w.on('candidate', (c) => {
    const t = closedAt.get(c.path)
    if (t !== undefined) lat.push(Date.now() - t)
  })
  await w.start()
  const body = Buffer.alloc(size, 1)
  const writes: Promise<void>[] = []
  for (let i = 0; i < count; i++) {
    const p = path.join(dir, `f${i}.pdf`)
    const write = fs.writeFile(p, body).then(() => void closedAt.set(p, Date.now()))
    if (gapMs > 0) {
      await write
      await sleep(gapMs)
    } else writes.push(write)
  }
  await Promise.all(writes)
  const until = Date.now() + 60_000
  while (lat.length < count && Date.now() < until) await sleep(20)
  await w.stop()
  await fs.rm(dir, { recursive: true, force: true })
  console.log(
    `${label.padEnd(44)} n=${String(lat.length).padStart(5)}  p50 ${String(pct(lat, 50)).padStart(4)} ms` +
      `  p99 ${String(pct(lat, 99)).padStart(5)} ms  max ${Math.max(...lat)} ms`,
  )
}

async function initialScan(n: number, perDir: number): Promise<void> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'bookdrop-bench-scan-'))
  for (let d = 0; d < Math.ceil(n / perDir); d++) {
    const sub = path.join(dir, `d${d}`)
    await fs.mkdir(sub)
    const names = Array.from({ length: Math.min(perDir, n - d * perDir) }, (_, i) => `receipt-${d}-${i}.pdf`)
    for (let i = 0; i < names.length; i += 200) {
      await Promise.all(names.slice(i, i + 200).map((name) => fs.writeFile(path.join(sub, name), 'x')))
    }
  }
  globalThis.gc?.()
  await sleep(200)
  const base = process.memoryUsage()
  let peakRss = base.rss
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 20)
  const w = new FolderWatcher({
    id: 'scan',
    path: dir,
    recursive: true,
    acceptedKinds: ['pdf'],
    usePolling: false,
  })
  let seen = 0
  w.on('candidate', () => void seen++)
  const t0 = Date.now()
  await w.start()
  const started = Date.now() - t0
  const until = Date.now() + 120_000
  while (seen < n && Date.now() < until) await sleep(20)
  const allSeen = Date.now() - t0
  await sleep(200)
  globalThis.gc?.()
  const after = process.memoryUsage()
  clearInterval(sampler)
  await w.stop()
  await fs.rm(dir, { recursive: true, force: true })
  console.log(
    `initial scan of ${n} files (recursive, ${perDir}/folder): start() ${started} ms, all ${seen} candidates ${allSeen} ms`,
  )
  console.log(
    `  RSS before ${(base.rss / MB).toFixed(0)} MB, peak ${(peakRss / MB).toFixed(0)} MB ` +
      `(+${((peakRss - base.rss) / MB).toFixed(0)} MB); heap after ${(after.heapUsed / MB).toFixed(1)} MB ` +
      `(+${((after.heapUsed - base.heapUsed) / MB).toFixed(1)} MB, i.e. ~${Math.round((after.heapUsed - base.heapUsed) / n)} B/file kept)`,
  )
}

const n = Number(process.argv[2] ?? 20_000)
const perDir = Number(process.argv[3] ?? 1_000)
await latency('one by one, 200 KB, 100 ms apart', 100, 100, 200 * 1024)
await latency('burst: 1000 × 200 KB written at once', 1000, 0, 200 * 1024)
await initialScan(n, perDir)
