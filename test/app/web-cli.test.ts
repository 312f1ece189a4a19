/**
 * `npm run web` as a person runs it (bin/bookdrop.mjs, a real child process): `--help` explains
 * every option, and `--demo` leaves no trace outside a temporary folder (HOME and XDG_CONFIG_HOME
 * point at empty folders that must stay empty) unless `--data-dir` asks to keep its data.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const ROOT = join(import.meta.dirname, '..', '..')
let dir = ''
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bookdrop-web-cli-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

function web(args: string[], env: NodeJS.ProcessEnv = {}): { child: ChildProcess; out: () => string; exit: Promise<number | null> } {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env }
  delete childEnv.BOOKDROP_DATA_DIR
  const child = spawn(process.execPath, ['bin/bookdrop.mjs', 'web', ...args], { cwd: ROOT, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()))
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()))
  const exit = new Promise<number | null>((r) => child.once('exit', (code) => r(code)))
  return { child, out: () => out, exit }
}

/** A home and a configuration folder of their own, empty. */
async function emptyHome(name: string): Promise<{ HOME: string; XDG_CONFIG_HOME: string }> {
  const HOME = join(dir, name, 'home')
  const XDG_CONFIG_HOME = join(dir, name, 'config')
  await mkdir(HOME, { recursive: true })
  await mkdir(XDG_CONFIG_HOME, { recursive: true })
  return { HOME, XDG_CONFIG_HOME }
}

/** Starts `npm run web` with `args`, waits for its address, asks it for its app info, stops it with Ctrl+C. */
async function runDemo(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  const r = web(['--port', '0', ...args], env)
  const end = Date.now() + 60_000
  while (!/open (http:\/\/127\.0\.0\.1:\d+)\/\?token=(\S+)/.test(r.out())) {
    if (Date.now() > end || r.child.exitCode !== null) throw new Error(`no address:\n${r.out()}`)
    await new Promise((s) => setTimeout(s, 50))
  }
  const [, origin, token] = /open (http:\/\/127\.0\.0\.1:\d+)\/\?token=(\S+)/.exec(r.out())!
  const res = await fetch(`${origin}/api/call/getAppInfo`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: '{}',
  })
  expect(await res.json()).toMatchObject({ ok: true, value: { demo: true } })
  r.child.kill('SIGINT')
  expect(await r.exit, r.out()).toBe(0)
  return r.out()
}

describe('npm run web', () => {
  it('--help explains every option, one line each at least', async () => {
    const r = web(['--help'])
    expect(await r.exit).toBe(0)
    const help = r.out()
    for (const option of ['--port <n>', '--demo', '--data-dir <dir>', '--reset-queue', '--phone-listen <address>', '-h, --help'])
      expect(help, option).toMatch(new RegExp(`^  ${option.replace(/[-[\]]/g, '\\$&')}\\s{2,}\\w.{15,}`, 'm'))
    expect(help).toMatch(/temporary folder/)
  }, 60_000)

  it('--demo writes nothing in the home or configuration folder; its temporary data folder is gone after', async () => {
    const home = await emptyHome('demo')
    const out = await runDemo(['--demo'], home)
    expect(await readdir(home.HOME)).toEqual([])
    expect(await readdir(home.XDG_CONFIG_HOME)).toEqual([])
    const temp = /the demo keeps its data in (\S+), a temporary folder/.exec(out)?.[1]
    expect(temp, out).toBeDefined()
    expect(existsSync(temp!)).toBe(false)
  }, 90_000)

  it('--demo --data-dir keeps the demo\'s data where asked', async () => {
    const home = await emptyHome('kept')
    const data = join(dir, 'kept', 'data')
    const out = await runDemo(['--demo', '--data-dir', data], home)
    expect(out).not.toMatch(/temporary folder/)
    expect(existsSync(join(data, 'bookdrop.db'))).toBe(true)
    expect(await readdir(home.XDG_CONFIG_HOME)).toEqual([])
  }, 90_000)
})
