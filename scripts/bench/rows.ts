/**
 * One row of `npm run bench`'s table, and how a scenario script that runs in a process of its own
 * (renderer.ts, phone.ts, hostile.ts) hands its rows back: `--json` prints them as one last line
 * for run.ts, otherwise as a table.
 */
export interface BenchRow {
  what: string
  figure: string
  target: string
  ok: boolean | null
}

/** A whole process timed from outside (run.ts's `timed`, which mail.ts is given). */
export interface Timed {
  wallMs: number
  cpuMs: number
  /** Largest resident set of any process in the tree, bytes (GNU time's %M). */
  peakRss: number
  code: number | null
  out: string
}

/** Runs `bench` when `script` is the file node was started with (`npx tsx scripts/bench/<script>`). */
export function runAlone(script: string, bench: () => Promise<BenchRow[]>): void {
  if (!process.argv[1]?.endsWith(script)) return
  bench().then(
    (rows) => {
      if (process.argv.includes('--json')) console.log(JSON.stringify(rows))
      else {
        const w = Math.max(...rows.map((r) => r.what.length))
        for (const r of rows) {
          const mark = r.ok === null ? '' : r.ok ? '  ok' : '  MISSED'
          console.log(`${r.what.padEnd(w)}  ${r.figure.padStart(9)}  ${r.target}${mark}`)
        }
      }
      process.exit(0)
    },
    (e: unknown) => {
      console.error(e)
      process.exit(1)
    },
  )
}
