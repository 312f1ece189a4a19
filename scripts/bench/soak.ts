/**
 * The soak (issue 30): `npm run headless` watching a folder, started as a person starts it (through
 * npm), against the emulator on 127.0.0.1, while 20 small real PDFs a second land in the folder
 * (each written whole under a temporary name the watcher ignores, then renamed: created once).
 * The engine's RSS is sampled every 2 s; the row is its growth after the first quarter of the run,
 * which must stay under 20 MB however long the run (a leak grows with the number of files).
 *
 * Part of `npm run bench` with `--only soak` or `--soak`; alone:
 *   npx tsx scripts/bench/soak.ts [--soak-minutes N] [--quick] [--heap-snapshots <dir>] [--stall <s>]
 * `--heap-snapshots <dir>` starts the engine with --heapsnapshot-signal=SIGUSR2 and takes a snapshot
 * at the end of the first quarter and at the end (before the stop), into <dir>, for comparison in
 * Chrome's DevTools (Memory → Comparison). A snapshot pauses the engine for a few seconds.
 * `--stall <s>` stops the engine for s seconds at 30 % of the run (SIGSTOP/SIGCONT): can it catch up?
 */
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { renameSync, writeFileSync } from 'node:fs'
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { startSandbox } from '../../sandbox'
import { cmdlineOf, descendants, rssOf, rssParts } from './procs'
import { runAlone, type BenchRow } from './rows'

const MB = 1024 * 1024
const SAMPLE_MS = 2000
/** Files a second, as the issue measured. */
const RATE = 20
/** Growth allowed after the first quarter of the run. */
const BUDGET_MB = 20
/** The RSS figures are medians of the samples this close to their moment (at least 20 s). */
const windowMs = (durationMs: number) => Math.max(20_000, Math.round(durationMs / 16))

export interface SoakOptions {
  root: string
  minutes: number
  /** Where heap snapshots go (none when absent). */
  snapshots?: string
  /**
   * Stops the engine (SIGSTOP) for this many seconds at 30 % of the run, then lets it go on (a
   * laptop's sleep, a busy machine): the files meanwhile are a backlog it must catch up on.
   */
  stallSeconds?: number
  /** Extra NODE_OPTIONS for the engine (e.g. --max-semi-space-size), for experiments. */
  nodeOptions?: string
  log?: (line: string) => void
}

/**
 * A small real PDF: one page that says which receipt it is (so every file's bytes differ and the
 * engine sees a new document each time), with a correct cross-reference table, ending in %%EOF.
 */
export function smallPdf(n: number): Buffer {
  const text = `Receipt ${n} ${randomBytes(6).toString('hex')} total 1${n % 1000}.00`
  const content = `BT /F1 12 Tf 72 720 Td (${text}) Tj ET`
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ]
  let out = '%PDF-1.4\n'
  const offsets: number[] = []
  objects.forEach((o, i) => {
    offsets.push(out.length)
    out += `${i + 1} 0 obj\n${o}\nendobj\n`
  })
  const xref = out.length
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`
  for (const off of offsets) out += `${String(off).padStart(10, '0')} 00000 n \n`
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`
  return Buffer.from(out, 'latin1')
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const mb = (b: number) => `${(b / MB).toFixed(0)} MB`

export async function soakBench(o: SoakOptions): Promise<BenchRow[]> {
  const log = o.log ?? ((l: string) => console.error(l))
  const key = `svc_sk_soak_${randomBytes(8).toString('hex')}`
  const work = await mkdtemp(join(tmpdir(), 'bookdrop-soak-'))
  const inbox = join(work, 'inbox')
  await mkdir(inbox)
  const sb = await startSandbox({
    port: 0,
    fixtures: {
      businesses: [{ uuid: 'soak', name: 'Soak', key }],
      rate_limit: { limit: 1_000_000, window_seconds: 60 },
    },
  })
  const durationMs = o.minutes * 60_000
  const names: string[] = []
  const done = new Set<string>()
  const samples: { t: number; rss: number; files: number; done: number; heap: number; anon: number }[] = []
  /** Each file's last state as the engine's lines tell it. */
  const state = new Map<string, string>()
  let engine: ReturnType<typeof spawn> | undefined
  try {
    const nodeOptions = [
      process.env.NODE_OPTIONS ?? '',
      o.snapshots ? `--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=${o.snapshots}` : '',
      o.nodeOptions ?? '',
    ]
      .join(' ')
      .trim()
    engine = spawn(
      'npm',
      [
        ...['run', '--silent', 'headless', '--', '--watch', inbox, '--target', 'expenses'],
        ...['--base-url', sb.url, '--data-dir', join(work, 'data'), '--concurrency', '3'],
      ],
      {
        cwd: o.root,
        env: { ...process.env, BOOKDROP_API_KEY: key, NODE_OPTIONS: nodeOptions },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    )
    let buf = ''
    let watching = false
    let summary = ''
    engine.stdout!.on('data', (d: Buffer) => {
      buf += d.toString()
      let i: number
      while ((i = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, i)
        buf = buf.slice(i + 1)
        if (/^bookdrop: watching /.test(line)) watching = true
        const m = /^(\S+)\s+#\d+ (\S+)/.exec(line)
        if (m) {
          state.set(m[2]!, m[1]!)
          if (m[1] === 'done') done.add(m[2]!)
        }
        if (line.startsWith('summary:')) summary = line
        if (/^(FAILED|warning|error)/.test(line)) log(`soak: engine: ${line}`)
      }
    })
    const exited = new Promise<number | null>((r) => engine!.on('exit', r))
    const until = Date.now() + 60_000
    while (!watching && Date.now() < until) await sleep(50)
    if (!watching) throw new Error('the headless engine did not start watching within 60 s')
    await sleep(2000)
    const enginePid = () =>
      descendants(engine!.pid!)
        .filter((p) => /bookdrop\.mjs headless/.test(cmdlineOf(p)))
        .at(-1)
    const pid = enginePid()
    if (pid === undefined) throw new Error('no engine process found under npm')
    const startRss = rssOf(pid)
    log(`soak: engine pid ${pid}, ${mb(startRss)} watching; ${o.minutes} min at ${RATE} files/s`)

    const t0 = Date.now()
    let snapQuarter = false
    let stalled = false
    const sampler = setInterval(() => {
      const t = Date.now() - t0
      const parts = rssParts(pid)
      samples.push({ t, rss: rssOf(pid), files: names.length, done: done.size, heap: parts.heap, anon: parts.anon })
      if (o.stallSeconds && !stalled && t >= durationMs * 0.3) {
        stalled = true
        log(`soak: engine stopped for ${o.stallSeconds} s`)
        process.kill(pid, 'SIGSTOP')
        setTimeout(() => process.kill(pid, 'SIGCONT'), o.stallSeconds * 1000)
      }
      if (o.snapshots && !snapQuarter && t >= durationMs / 4) {
        snapQuarter = true
        process.kill(pid, 'SIGUSR2')
      }
    }, SAMPLE_MS)
    let lastLog = 0
    // Write at RATE a second, on a schedule (a late tick writes the files it owes).
    while (Date.now() - t0 < durationMs) {
      const owed = Math.floor(((Date.now() - t0) / 1000) * RATE)
      while (names.length < owed) {
        const name = `receipt-${String(names.length).padStart(6, '0')}.pdf`
        const tmp = join(inbox, `${name}.part`)
        writeFileSync(tmp, smallPdf(names.length))
        renameSync(tmp, join(inbox, name))
        names.push(name)
      }
      if (Date.now() - lastLog >= 30_000) {
        lastLog = Date.now()
        const s = samples.at(-1)
        const stages = new Map<string, number>()
        for (const v of state.values()) if (v !== 'done') stages.set(v, (stages.get(v) ?? 0) + 1)
        const unseen = names.length - state.size
        log(
          `soak: ${((Date.now() - t0) / 60_000).toFixed(1)} min, ${names.length} written, ${done.size} done` +
            ` (not done: ${[...stages].map(([k, n]) => `${n} ${k}`).join(', ') || 'none'}, ${unseen} not seen yet),` +
            ` RSS ${s ? `${mb(s.rss)} (malloc heap ${mb(s.heap)}, other anon ${mb(s.anon)})` : '?'}`,
        )
      }
      await sleep(1000 / RATE)
    }
    const lag = names.length - done.size
    const drainFrom = Date.now()
    // Let the last files finish (jobs of the emulator take under a second; polls back off).
    const drainUntil = Date.now() + 120_000
    while (done.size < names.length && Date.now() < drainUntil) await sleep(200)
    const drainMs = Date.now() - drainFrom
    clearInterval(sampler)
    const endRss = rssOf(pid)
    const endParts = rssParts(pid)
    samples.push({ t: Date.now() - t0, rss: endRss, files: names.length, done: done.size, ...endParts })
    if (o.snapshots) {
      process.kill(pid, 'SIGUSR2')
      await sleep(15_000)
    }
    process.kill(pid, 'SIGTERM')
    const code = await exited
    engine = undefined

    // V8 resizes its young generation (up to 32 MB) as the allocation rate goes: one sample can be
    // 15 MB off its neighbours for a minute. The figures are medians of the samples within
    // WINDOW_MS of the first quarter's end and of the run's last WINDOW_MS (all done).
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN
    const WINDOW_MS = windowMs(durationMs)
    const qAt = durationMs / 4
    const quarter = samples.find((s) => s.t >= qAt) ?? samples[0]!
    const quarterRss = median(samples.filter((s) => Math.abs(s.t - qAt) <= WINDOW_MS).map((s) => s.rss))
    const last = samples.at(-1)!.t
    const endMedian = median(samples.filter((s) => s.t >= last - WINDOW_MS).map((s) => s.rss))
    const growth = endMedian - quarterRss
    const filesAfter = names.length - quarter.files
    const peak = Math.max(...samples.map((s) => s.rss))
    // The emulator's own log of creates: every file created exactly once, none lost.
    const creates = new Map<string, number>()
    for (const c of sb.state.creates)
      for (const a of c.attachments) if (a.name) creates.set(a.name, (creates.get(a.name) ?? 0) + 1)
    const once = names.filter((n) => creates.get(n) === 1).length
    const twice = names.filter((n) => (creates.get(n) ?? 0) > 1).length
    const lost = names.filter((n) => !creates.has(n)).length
    const trace = samples
      .filter((_, i) => i % Math.max(1, Math.round(samples.length / 12)) === 0 || i === samples.length - 1)
      .map((s) => `${(s.t / 60_000).toFixed(1)}m ${(s.rss / MB).toFixed(0)} (${(s.heap / MB).toFixed(0)}/${(s.anon / MB).toFixed(0)}) ${s.files - s.done}`)
      .join(', ')
    log(`soak: RSS trace (minutes, RSS MB (malloc heap/other anon), files written but not done): ${trace}`)
    log(`soak: engine exit ${code}; ${summary}`)
    const label = `soak ${o.minutes} min at ${RATE} files/s, npm run headless watching`
    return [
      {
        what: `${label}: files created once each (of ${names.length} written; ${twice} twice, ${lost} lost)`,
        figure: String(once),
        target: `${names.length}`,
        ok: once === names.length,
      },
      {
        what: `  files done (the engine's lines; exit ${code}: ${summary.replace(/^summary: /, '')})`,
        figure: String(done.size),
        target: `${names.length}`,
        ok: done.size === names.length,
      },
      {
        what: `  files not done when the writing stopped (the engine's lag; then done in ${(drainMs / 1000).toFixed(0)} s)`,
        figure: String(lag),
        target: `≤ ${RATE * 5}`,
        ok: lag <= RATE * 5,
      },
      { what: '  engine RSS watching, before the first file', figure: mb(startRss), target: '', ok: null },
      {
        what: `  RSS at the first quarter (${(quarter.t / 60_000).toFixed(1)} min, ${quarter.files} files; median of ±${WINDOW_MS / 1000} s)`,
        figure: mb(quarterRss),
        target: '',
        ok: null,
      },
      { what: `  RSS at the end (median of the last ${WINDOW_MS / 1000} s; the last sample, all done: ${mb(endRss)})`, figure: mb(endMedian), target: '', ok: null },
      { what: '  peak RSS', figure: mb(peak), target: '', ok: null },
      {
        what: '  RSS growth after the first quarter',
        figure: `${(growth / MB).toFixed(1)} MB`,
        target: `< ${BUDGET_MB} MB`,
        ok: growth < BUDGET_MB * MB,
      },
      {
        what: `  per file after the first quarter (${filesAfter} files)`,
        figure: `${(growth / 1024 / Math.max(1, filesAfter)).toFixed(2)} KB`,
        target: '',
        ok: null,
      },
    ]
  } finally {
    if (engine?.pid) {
      for (const p of [...descendants(engine.pid), engine.pid]) {
        try {
          process.kill(p, 'SIGTERM')
        } catch {
          // gone
        }
      }
    }
    await sb.stop()
    await rm(work, { recursive: true, force: true })
  }
}

/** `--soak-minutes N` (default 8, `--quick` 2). */
export function soakMinutes(argv: string[]): number {
  const i = argv.indexOf('--soak-minutes')
  if (i >= 0) {
    const n = Number(argv[i + 1])
    if (!(n > 0)) throw new Error('--soak-minutes takes a number of minutes')
    return n
  }
  return argv.includes('--quick') ? 2 : 8
}

runAlone('soak.ts', () => {
  const argv = process.argv.slice(2)
  const i = argv.indexOf('--heap-snapshots')
  const j = argv.indexOf('--node-options')
  const k = argv.indexOf('--stall')
  return soakBench({
    root: resolve(import.meta.dirname, '../..'),
    minutes: soakMinutes(argv),
    snapshots: i >= 0 ? resolve(argv[i + 1]!) : undefined,
    nodeOptions: j >= 0 ? argv[j + 1] : undefined,
    stallSeconds: k >= 0 ? Number(argv[k + 1]) : undefined,
  })
})
