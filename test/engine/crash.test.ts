/**
 * Crash safety: the headless process is killed with SIGKILL at random moments while 300 files go
 * through, restarted, killed again… then run with --once. No file is lost, none is created twice.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Sandbox, startSandbox } from '../../sandbox'
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

beforeAll(async () => {
  sb = await startSandbox({ fixtures: fixtures({ job_delay_ms: 150 }), port: 0 })
  // Some responses are lost after the server commits, as on a flaky network.
  sb.setFaults({ commit_then_drop_rate: 0.05, error_rate: 0.03 })
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

    let kills = 0
    for (let round = 0; round < 5; round++) {
      const child = headless(args, env)
      let out = ''
      child.stdout!.on('data', (d: Buffer) => (out += d.toString()))
      // Wait until it is really working, then kill it at a random moment.
      const started = Date.now()
      while (!/processing|done|sending/.test(out) && Date.now() - started < 20_000)
        await new Promise((s) => setTimeout(s, 20))
      await new Promise((s) => setTimeout(s, 100 + Math.random() * 1200))
      child.kill('SIGKILL')
      await exited(child)
      kills++
    }
    expect(kills).toBe(5)

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
