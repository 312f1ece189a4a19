/**
 * Crash safety: the headless process is killed with SIGKILL at random moments while 300 files go
 * through, restarted, killed again… then run with --once. No file is lost, none is created twice.
 * Every kill lands while the emulator is handling one of its requests. The faults and the kill
 * timings come from one seed, printed, and replayed with BOOKDROP_FAULT_SEED=<seed>.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Sandbox, startSandbox } from '../../sandbox'
import { initialFaultSeed, seededRandom } from '../../sandbox/state'
import { Db } from '../../src-main/core/store/db'
import { UploadStore } from '../../src-main/core/store/uploads'
import { KEY, createdBySha, fixtures, receipt } from './helpers'

const ROOT = resolve(__dirname, '../..')
const FILES = 300

function headless(args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'src-main/headless.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((r) => {
    if (child.exitCode !== null || child.signalCode !== null) r(child.exitCode)
    else child.once('exit', (code) => r(code))
  })
}

let sb: Sandbox
let dir: string
const seed = initialFaultSeed()
const random = seededRandom(seed ^ 0x5eed)

beforeAll(async () => {
  console.log(`crash test: fault seed ${seed} (replay with BOOKDROP_FAULT_SEED=${seed})`)
  sb = await startSandbox({ fixtures: fixtures({ job_delay_ms: 150 }), port: 0 })
  // Some responses are lost after the server commits, as on a flaky network; each request takes a
  // little while, so there is always one to be killed in the middle of.
  sb.setFaults({ seed, commit_then_drop_rate: 0.05, error_rate: 0.03, latency_ms: 15 })
  dir = await mkdtemp(join(tmpdir(), 'bookdrop-crash-'))
})

afterAll(async () => {
  await sb.stop()
  await rm(dir, { recursive: true, force: true })
})

describe('crash safety', () => {
  it(`kill -9 at random moments while ${FILES} files go through: none lost, none created twice`, async () => {
    const inbox = join(dir, 'inbox')
    const dataDir = join(dir, 'data')
    await mkdir(inbox)
    const files = await Promise.all(
      Array.from({ length: FILES }, (_, i) => receipt(inbox, `r${String(i).padStart(3, '0')}.txt`)),
    )
    const args = ['--watch', inbox, '--target', 'expenses', '--base-url', sb.url, '--data-dir', dataDir]
    const env = { BOOKDROP_API_KEY: KEY }

    /** Requests the emulator was handling at each kill. */
    const inFlightAtKill: number[] = []
    for (let round = 0; round < 5; round++) {
      const child = headless(args, env)
      let out = ''
      child.stdout!.on('data', (d: Buffer) => (out += d.toString()))
      // Wait until it is really working, then, at a random moment, for a request in flight.
      const started = Date.now()
      while (!/processing|done|sending/.test(out) && Date.now() - started < 20_000)
        await new Promise((s) => setTimeout(s, 20))
      await new Promise((s) => setTimeout(s, 100 + random() * 1200))
      const deadline = Date.now() + 10_000
      while (sb.state.inFlight === 0 && Date.now() < deadline) await new Promise((s) => setImmediate(s))
      // The emulator runs in this process: nothing changes between this read and the kill.
      inFlightAtKill.push(sb.state.inFlight)
      child.kill('SIGKILL')
      await exited(child)
    }
    expect(inFlightAtKill).toHaveLength(5)
    expect(inFlightAtKill.filter((n) => n === 0), `in flight at each kill: ${inFlightAtKill.join(', ')}`).toEqual([])

    const final = headless([...args, '--once'], env)
    let out = ''
    final.stdout!.on('data', (d: Buffer) => (out += d.toString()))
    final.stderr!.on('data', (d: Buffer) => (out += d.toString()))
    const code = await exited(final)
    expect(code, out.slice(-2000)).toBe(0)
    expect(out).toMatch(/summary: /)

    const made = await createdBySha(sb)
    const lost = files.filter((f) => made.get(f.sha256) === undefined)
    const twice = files.filter((f) => (made.get(f.sha256) ?? 0) > 1)
    expect(lost).toEqual([])
    expect(twice).toEqual([])

    const db = new Db(join(dataDir, 'bookdrop.db'))
    try {
      const counts = new UploadStore(db).countByStatus()
      expect(counts.completed).toBe(FILES)
      expect(
        counts.failed + counts.queued + counts.uploading + counts.waiting_retry + counts.processing,
      ).toBe(0)
    } finally {
      db.close()
    }
  }, 240_000)
})
