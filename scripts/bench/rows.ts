import { spawn } from 'node:child_process'
import { resolve } from 'node:path'

const ROOT = resolve(import.meta.dirname, '../..')

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

/** The middle value (the mean of the two middle ones for an even count). */
export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = Math.floor(s.length / 2)
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}
export const ms = (n: number) => `${n.toFixed(0)} ms`
export const KB = 1024

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

/**
 * Runs a command as a person would and measures it from outside with GNU time: wall time, CPU time
 * (user + system of the whole process tree, npm included when it is the command) and peak RSS.
 */
export function timed(cmd: string, cmdArgs: string[], env: NodeJS.ProcessEnv = {}): Promise<Timed> {
  return new Promise((res, rej) => {
    const t0 = performance.now()
    const p = spawn('/usr/bin/time', ['-f', 'BENCH_TIME %U %S %M', cmd, ...cmdArgs], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    p.stdout.on('data', (d: Buffer) => (out += d.toString()))
    p.stderr.on('data', (d: Buffer) => (out += d.toString()))
    p.on('error', rej)
    p.on('exit', (code) => {
      const wallMs = performance.now() - t0
      const m = /BENCH_TIME ([\d.]+) ([\d.]+) (\d+)/.exec(out)
      if (!m)
        return rej(
          new Error(`no timing from /usr/bin/time for ${cmd} ${cmdArgs.join(' ')}:\n${out.slice(-500)}`),
        )
      res({ wallMs, cpuMs: (Number(m[1]) + Number(m[2])) * 1000, peakRss: Number(m[3]) * 1024, code, out })
    })
  })
}
