/**
 * `npm start` (scripts/start.mjs) on a machine that cannot have the Electron binary: no binary where
 * it would be (ELECTRON_OVERRIDE_DIST_PATH points at an empty folder), a download host that refuses
 * connections (ELECTRON_MIRROR on a closed loopback port) and an empty download cache. The person
 * reads one plain sentence that says the desktop window needs the download and that the browser app
 * works now, naming `npm run web -- --demo`; never the installer's own error.
 */
import { spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { type AddressInfo, createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const ROOT = join(import.meta.dirname, '..', '..')
let dir = ''
let closedPort = 0

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bookdrop-start-'))
  const s = createServer()
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()))
  closedPort = (s.address() as AddressInfo).port
  await new Promise<void>((r) => s.close(() => r()))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

function start(env: NodeJS.ProcessEnv): Promise<{ code: number | null; stderr: string; stdout: string }> {
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: ROOT,
    env: {
      ...process.env,
      HOME: dir,
      ELECTRON_OVERRIDE_DIST_PATH: join(dir, 'no-electron'),
      ELECTRON_MIRROR: `http://127.0.0.1:${closedPort}/`,
      electron_config_cache: join(dir, 'cache'),
      ELECTRON_SKIP_BINARY_DOWNLOAD: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  return new Promise((r) => child.once('close', (code) => r({ code, stderr, stdout })))
}

/** The last line: one sentence, plain words, pointing to the browser app. */
function expectPlainSentence(stderr: string): string {
  const last = stderr.trim().split('\n').at(-1)!
  expect(last).toMatch(/^Bookdrop: the desktop window needs Electron, a one-time download that .+; the browser app works now: run `npm run web -- --demo`/)
  expect(last).toMatch(/\.$/)
  expect(last.slice(0, -1)).not.toMatch(/\.\s/) // one sentence
  expect(stderr).not.toMatch(/TypeError|fetch failed|ECONNREFUSED|RequestError|\n\s+at /)
  return last
}

describe('npm start without the Electron binary', () => {
  it('the download cannot be made: one plain sentence naming `npm run web -- --demo`, exit 1', async () => {
    const r = await start({})
    expect(r.code, r.stderr).toBe(1)
    const last = expectPlainSentence(r.stderr)
    expect(last).toContain(`cannot reach 127.0.0.1:${closedPort}`)
  }, 60_000)

  it('ELECTRON_SKIP_BINARY_DOWNLOAD does not hide the sentence', async () => {
    const r = await start({ ELECTRON_SKIP_BINARY_DOWNLOAD: '1' })
    expect(r.code, r.stderr).toBe(1)
    expect(expectPlainSentence(r.stderr)).toContain('ELECTRON_SKIP_BINARY_DOWNLOAD')
  }, 60_000)
})
