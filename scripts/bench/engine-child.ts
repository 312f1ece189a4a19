/**
 * One benchmark scenario in a fresh process, so its peak RSS is its own. Prints one JSON line.
 *   node --expose-gc --import tsx scripts/bench/engine-child.ts <scenario> <json options>
 */
import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { BookkeepingClient } from '../../src-main/core/api'
import { Engine } from '../../src-main/core/engine'
import type { ClientProvider } from '../../src-main/core/queue/queue'

interface Opts {
  baseUrl: string
  key: string
  dataDir: string
  files?: string[]
  dir?: string
  expect?: number
  concurrency: number
  maxFileBytes?: number
  /** detect: after the expected requests started, keep watching this long (a second create would show). */
  lingerMs?: number
}

let peak = 0
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage.rss())
}, 25)

function provider(o: Opts): ClientProvider {
  return {
    clientFor: async (_id, onRateLimit) =>
      new BookkeepingClient({
        environment: 'custom',
        baseUrl: o.baseUrl,
        auth: { key: o.key },
        maxFileBytes: o.maxFileBytes,
        timeoutMs: 600_000,
        onResponse: (i) => i.rateLimit && onRateLimit(i.rateLimit),
      }),
  }
}

async function waitUntil(fn: () => boolean): Promise<void> {
  while (!fn()) await new Promise((r) => setTimeout(r, 5))
}

function gcNow(): void {
  ;(globalThis as { gc?: () => void }).gc?.()
}

async function openEngine(o: Opts): Promise<Engine> {
  return Engine.open({
    dataDir: o.dataDir,
    clients: provider(o),
    queue: { concurrency: o.concurrency, maxFileBytes: o.maxFileBytes ?? 25 * 1024 * 1024 },
  })
}

/** Counts rows the server accepted (answered with a job reference or a record), from the event stream. */
function acceptedCounter(e: Engine): () => number {
  let n = 0
  e.events.on('upload', ({ upload, previous }) => {
    if (previous === 'uploading' && (upload.status === 'processing' || upload.status === 'completed')) n++
    if (upload.status === 'failed') n++
  })
  return () => n
}

const scenarios: Record<string, (o: Opts) => Promise<Record<string, number>>> = {
  /** 1,000 files dropped at once: time until the server accepted all of them. */
  async engine(o) {
    const e = await openEngine(o)
    const accepted = acceptedCounter(e)
    gcNow()
    const base = process.memoryUsage.rss()
    peak = base
    const t0 = performance.now()
    await e.addFiles(o.files!, { profileId: 'bench', target: 'expenses' })
    await waitUntil(() => accepted() >= o.files!.length)
    const ms = performance.now() - t0
    const failed = e.uploads.countByStatus().failed
    await e.close()
    return { ms, peakRss: peak, baseRss: base, failed }
  },

  /**
   * The same bodies as a plain loop of fetch POSTs with the same concurrency: `concurrency` loops
   * taking the next file (no p-limit, no promise per file made up front).
   */
  async bare(o) {
    gcNow()
    const base = process.memoryUsage.rss()
    peak = base
    const files = o.files!
    let failed = 0
    let next = 0
    const t0 = performance.now()
    await Promise.all(
      Array.from({ length: o.concurrency }, async () => {
        while (next < files.length) {
          const i = next++
          const f = files[i]!
          const bytes = await readFile(f)
          const res = await fetch(`${o.baseUrl}/expenses`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-api-key': o.key, 'idempotency-key': `bare-${i}-${t0}` },
            body: JSON.stringify({
              prompt: `Record an expense from the receipt ${f}`,
              attachments: [{ type: 'base64', name: f.slice(f.lastIndexOf('/') + 1), file: bytes.toString('base64') }],
            }),
          })
          await res.arrayBuffer()
          if (!res.ok) failed++
        }
      }),
    )
    const ms = performance.now() - t0
    return { ms, peakRss: peak, baseRss: base, failed }
  },

  /** An initial scan of many existing files (uploads paused: this measures detection and hashing). */
  async scan(o) {
    const e = await openEngine(o)
    let queued = 0
    e.events.on('upload', ({ upload, previous }) => {
      if (previous === null && upload.status === 'queued') queued++
    })
    e.pause('bench')
    gcNow()
    const base = process.memoryUsage.rss()
    peak = base
    const t0 = performance.now()
    await e.addFolder({
      profileId: 'bench',
      path: o.dir!,
      target: 'expenses',
      recursive: true,
      takeExisting: true,
    })
    await waitUntil(() => queued >= o.expect!)
    const ms = performance.now() - t0
    await e.close()
    return { ms, peakRss: peak, baseRss: base }
  },

  /** One large file: RSS growth while it is encoded and sent. */
  async large(o) {
    const e = await openEngine(o)
    const accepted = acceptedCounter(e)
    gcNow()
    await new Promise((r) => setTimeout(r, 200))
    gcNow()
    const base = process.memoryUsage.rss()
    peak = base
    const t0 = performance.now()
    await e.addFiles(o.files!, { profileId: 'bench', target: 'expenses' })
    await waitUntil(() => accepted() >= 1)
    const ms = performance.now() - t0
    const failed = e.uploads.countByStatus().failed
    const err = failed ? e.history().rows[0]?.lastError : undefined
    await e.close()
    if (err) console.error(err)
    return { ms, peakRss: peak, baseRss: base, failed }
  },

  /** Detection latency: the parent writes files; we report when each one's request started. */
  async detect(o) {
    const e = await openEngine(o)
    const started: Record<string, number> = {}
    e.events.on('upload', ({ upload }) => {
      if (upload.status === 'uploading' && !started[upload.name]) started[upload.name] = Date.now()
    })
    await e.addFolder({ profileId: 'bench', path: o.dir!, target: 'expenses', takeExisting: false })
    process.stdout.write(JSON.stringify({ ready: true }) + '\n')
    await waitUntil(() => Object.keys(started).length >= o.expect!)
    await e.close()
    return Object.fromEntries(Object.entries(started).map(([k, v]) => [k, v]))
  },

  /**
   * Scans written page by page (the parent runs the scanners): when each one's request started,
   * how many creates the server accepted per file, and whether each was of the whole file.
   */
  async pages(o) {
    const e = await openEngine(o)
    const started: Record<string, number> = {}
    const accepted = new Map<string, string[]>()
    e.events.on('upload', ({ upload, previous }) => {
      if (upload.status === 'uploading' && !started[upload.name]) started[upload.name] = Date.now()
      if (previous === 'uploading' && (upload.status === 'processing' || upload.status === 'completed'))
        accepted.set(upload.name, [...(accepted.get(upload.name) ?? []), upload.sha256 ?? ''])
    })
    await e.addFolder({ profileId: 'bench', path: o.dir!, target: 'expenses', takeExisting: false })
    process.stdout.write(JSON.stringify({ ready: true }) + '\n')
    await waitUntil(() => Object.keys(started).length >= o.expect!)
    // A second create (of a later page) would show within this while.
    await new Promise((r) => setTimeout(r, o.lingerMs ?? 3000))
    await e.close()
    const out: Record<string, number> = { ...started }
    for (const name of Object.keys(started)) {
      const whole = createHash('sha256').update(await readFile(join(o.dir!, name))).digest('hex')
      const shas = accepted.get(name) ?? []
      out[`creates:${name}`] = shas.length
      out[`whole:${name}`] = shas.length > 0 && shas.every((x) => x === whole) ? 1 : 0
    }
    return out
  },
}

async function main(): Promise<void> {
  const [name, json] = process.argv.slice(2)
  const run = scenarios[name ?? '']
  if (!run || !json) throw new Error(`usage: engine-child <${Object.keys(scenarios).join('|')}> <json>`)
  const o = JSON.parse(json) as Opts
  o.dataDir = o.dataDir || join(process.cwd(), '.bench-data')
  const result = await run(o)
  clearInterval(sampler)
  process.stdout.write(JSON.stringify({ result }) + '\n')
  process.exit(0)
}

void main()
