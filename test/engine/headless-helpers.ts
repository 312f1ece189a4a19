/**
 * What the headless CLI tests (headless*.test.ts) share: the CLI as a real child process, and an
 * emulator plus a temp folder for the calling file's tests.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { chmod, mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll } from 'vitest'
import { type Sandbox, startSandbox } from '../../sandbox'
import { fixtures } from './helpers'

/** The headless CLI, run from source (from the repository's root). */
export const HEADLESS_CLI = [process.execPath, '--import', 'tsx', 'src-main/headless.ts']

export interface Run {
  child: ChildProcess
  out: () => string
  exit: Promise<number | null>
}

/** Spawns `command` in the repository's root with `env`; stdout and stderr are collected as one text. */
export function runCommand(command: string[], env: NodeJS.ProcessEnv): Run {
  const [cmd, ...args] = command
  const child = spawn(cmd!, args, {
    cwd: resolve(import.meta.dirname, '../..'),
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()))
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()))
  const exit = new Promise<number | null>((r) => child.once('exit', (code) => r(code)))
  return { child, out: () => out, exit }
}

export interface HeadlessRig {
  /** The emulator (the engine fixtures, jobs finishing after 50 ms). */
  readonly sb: Sandbox
  /** The temp folder, removed after the file's tests. */
  readonly dir: string
  /** A folder `name` under dir, made if missing. */
  folder(name: string): Promise<string>
}

/** Starts the emulator and makes the temp folder (mode 0755 when `readableByAll`) before the file's tests. */
export function useHeadlessRig(prefix: string, opts: { readableByAll?: boolean } = {}): HeadlessRig {
  let sb: Sandbox | undefined
  let dir: string | undefined
  beforeAll(async () => {
    sb = await startSandbox({ fixtures: fixtures({ job_delay_ms: 50 }), port: 0 })
    dir = await mkdtemp(join(tmpdir(), prefix))
    if (opts.readableByAll) await chmod(dir, 0o755)
  })
  afterAll(async () => {
    await sb?.stop()
    if (dir) await rm(dir, { recursive: true, force: true })
  })
  const started = <T>(v: T | undefined): T => {
    if (v === undefined) throw new Error('the headless rig is not started yet: use it inside a test')
    return v
  }
  return {
    get sb() {
      return started(sb)
    },
    get dir() {
      return started(dir)
    },
    async folder(name) {
      const d = join(started(dir), name)
      await mkdir(d, { recursive: true })
      return d
    },
  }
}

/** The CLI's arguments for the rig's emulator and a data folder `data` of the rig's, sending expenses. */
export function rigArgs(rig: HeadlessRig, data: string): string[] {
  return ['--base-url', rig.sb.url, '--data-dir', join(rig.dir, data), '--target', 'expenses']
}
