/**
 * `npm run bench -- --only hostile` (issue 23): hostile receipts sent to the emulator, which in the
 * demo runs inside the app's own process. For each: how long until the emulator answered (direct
 * mode: the answer waits for the reading), the worst delay of this process's own thread meanwhile
 * (what a person clicking in the app would wait), and how much this process's memory grew (the
 * documents worker is a thread of it). Runs in a process of its own; with `--json` its last line is
 * the rows (run.ts), else it prints them.
 *
 *   npx tsx scripts/bench/hostile.ts [--json] [--timeout-s 180]
 */
import { startSandbox } from '../../sandbox'
import { type BenchRow, runAlone } from './rows'
import { atOneText, inflateBombPdf, lessThanEmail, manyRunsPdf } from './hostile-documents'

const MB = 1024 * 1024
const KEY = 'svc_sk_bench_hostile'
const argv = process.argv.slice(2)
const timeoutS = Number(argv[argv.indexOf('--timeout-s') + 1]) || 180

const CASES: { what: string; name: string; bytes: () => Buffer }[] = [
  { what: 'a PDF of a million text runs', name: 'runs.pdf', bytes: () => manyRunsPdf(1_000_000) },
  { what: 'an e-mail whose HTML is "<" after "<"', name: 'lt.eml', bytes: () => lessThanEmail(400 * 1024) },
  {
    what: 'an e-mail of "<script" after "<script"',
    name: 'script.eml',
    bytes: () => lessThanEmail(400 * 1024, '<script'),
  },
  { what: 'a text of "at 1 at 1 …"', name: 'at.txt', bytes: () => Buffer.from(atOneText(400 * 1024)) },
  { what: 'a PDF that inflates to 1 GB', name: 'bomb.pdf', bytes: () => inflateBombPdf(1024) },
]

export async function hostileRows(): Promise<BenchRow[]> {
  const sb = await startSandbox({
    port: 0,
    fixtures: {
      businesses: [{ uuid: 'bench', name: 'Bench', key: KEY, credit_balance: 1000 }],
      rate_limit: { limit: 1000, window_seconds: 60 },
    },
  })
  const rows: BenchRow[] = []
  const send = (name: string, bytes: Buffer) =>
    fetch(`${sb.url}/expenses`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-API-Key': KEY },
      body: JSON.stringify({
        prompt: 'Receipt',
        process_type: 'direct',
        attachments: [{ file: bytes.toString('base64'), type: 'base64', name }],
      }),
      signal: AbortSignal.timeout(timeoutS * 1000),
    })
  try {
    // A small PDF first: the reader's worker starts and loads PDF.js once, outside the figures.
    await (await send('warm.pdf', manyRunsPdf(10))).arrayBuffer()
    for (const c of CASES) {
      const bytes = c.bytes()
      const rss0 = process.memoryUsage.rss()
      let peak = rss0
      // A 10 ms tick: how late it fires is how long this thread could not answer.
      let worstDelay = 0
      let last = performance.now()
      const sampler = setInterval(() => {
        const now = performance.now()
        worstDelay = Math.max(worstDelay, now - last - 10)
        last = now
        peak = Math.max(peak, process.memoryUsage.rss())
      }, 10)
      const t0 = performance.now()
      let outcome: string
      try {
        const res = await send(c.name, bytes)
        const json = (await res.json()) as { message?: string }
        outcome = res.ok ? 'read' : `refused: ${json.message ?? res.status}`
      } catch (e) {
        outcome = `no answer within ${timeoutS} s (${(e as Error).name})`
      }
      const ms = performance.now() - t0
      // A thread blocked until now never ran the tick: the last wait counts too.
      worstDelay = Math.max(worstDelay, performance.now() - last - 10)
      clearInterval(sampler)
      peak = Math.max(peak, process.memoryUsage.rss())
      rows.push({
        what: `${c.what} (${Math.round(bytes.length / 1024)} KB): answered in`,
        figure: `${(ms / 1000).toFixed(2)} s`,
        target: '',
        ok: null,
      })
      rows.push({ what: `  ${outcome.slice(0, 110)}`, figure: '', target: '', ok: null })
      rows.push({
        what: '  worst delay of the thread that answers, meanwhile',
        figure: `${Math.round(worstDelay)} ms`,
        target: '< 200 ms',
        ok: worstDelay < 200,
      })
      rows.push({
        what: '  memory growth of the process (peak RSS − before)',
        figure: `${Math.round((peak - rss0) / MB)} MB`,
        target: '',
        ok: null,
      })
    }
  } finally {
    await sb.stop()
  }
  return rows
}

runAlone('hostile.ts', hostileRows)
