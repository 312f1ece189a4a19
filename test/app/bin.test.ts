/**
 * bin/bookdrop.mjs, what `npm run headless|web|sandbox` run: bundled JavaScript (out/node), no
 * TypeScript loader, rebuilt when a source is newer than the last build.
 */
import { spawnSync } from 'node:child_process'
import { statSync, utimesSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = join(import.meta.dirname, '..', '..')
const bin = (...args: string[]) =>
  spawnSync(process.execPath, ['bin/bookdrop.mjs', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 })

describe('bookdrop (bin)', () => {
  it('headless --help prints the usage and exits 0, without loading TypeScript at run time', () => {
    const r = bin('headless', '--help')
    expect(r.status, r.stderr).toBe(0)
    expect(r.stdout).toMatch(/^usage: npm run headless -- --watch <dir>/)
    expect(r.stdout).toContain('--job-timeout <seconds>')
  })

  it('names its commands when given none or an unknown one', () => {
    const none = bin()
    expect(none.status).toBe(2)
    expect(none.stderr).toMatch(/usage: bookdrop <headless\|web\|sandbox>/)
    const odd = bin('frobnicate')
    expect(odd.status).toBe(2)
    expect(odd.stderr).toMatch(/unknown command "frobnicate"/)
  })

  it('rebuilds the bundles when a source is newer, and not otherwise', () => {
    bin('headless', '--help') // built and up to date
    const stamp = join(ROOT, 'out', 'node', '.built')
    const before = statSync(stamp).mtimeMs
    bin('headless', '--help')
    expect(statSync(stamp).mtimeMs).toBe(before)
    const source = join(ROOT, 'src-main', 'core', 'report.ts')
    const future = new Date(Date.now() + 2000)
    const st = statSync(source)
    utimesSync(source, st.atime, future)
    try {
      const r = bin('headless', '--help')
      expect(r.status).toBe(0)
      expect(statSync(stamp).mtimeMs).toBeGreaterThan(before)
    } finally {
      utimesSync(source, st.atime, st.mtime)
    }
  })

  it('sandbox --port 0 listens and names its address, then stops on SIGTERM', async () => {
    const { spawn } = await import('node:child_process')
    const p = spawn(process.execPath, ['bin/bookdrop.mjs', 'sandbox', '--port', '0'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    p.stdout.on('data', (d: Buffer) => (out += d.toString()))
    const until = Date.now() + 30_000
    while (!/listening on http:\/\/127\.0\.0\.1:\d+\/v1/.test(out) && Date.now() < until) await new Promise((r) => setTimeout(r, 25))
    expect(out).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+\/v1/)
    const code = new Promise<number | null>((r) => p.once('exit', (c) => r(c)))
    p.kill('SIGTERM')
    expect(await code).toBe(0)
  })
})
