/**
 * The demo runs the emulator inside the app's own process (issue 23): hostile receipts dropped in
 * the browser are sent to it and read there. The web host, a real process started as a person
 * starts it (`out/node/web-host.js --demo`), keeps answering while they are read, every one ends
 * with a status and a reason, and SIGTERM stops the host promptly while one is still being read.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { atOneText, inflateBombPdf, lessThanEmail, manyRunsPdf } from '../../scripts/bench/hostile-documents'
import { waitFor } from './helpers'

const ROOT = join(import.meta.dirname, '..', '..')

let child: ChildProcess | null = null
let dir = ''
afterEach(async () => {
  if (child?.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  child = null
  if (dir) await rm(dir, { recursive: true, force: true })
  dir = ''
})

async function startHost(): Promise<{
  call(name: string, body: unknown): Promise<{ ok: boolean; value?: unknown; error?: unknown }>
  err: () => string
}> {
  dir = await mkdtemp(join(tmpdir(), 'bookdrop-hostile-'))
  child = spawn(
    process.execPath,
    ['out/node/web-host.js', '--port', '0', '--demo', '--data-dir', join(dir, 'data')],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, BOOKDROP_API_KEY: '' },
    },
  )
  let out = ''
  let err = ''
  child.stdout!.setEncoding('utf8').on('data', (c: string) => (out += c))
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (err += c))
  const line = await waitFor(`the ready line (stderr: ${err})`, () => /^open (\S+)\n/m.exec(out)?.[1], 60_000)
  const url = new URL(line)
  const token = url.searchParams.get('token')!
  return {
    err: () => err,
    async call(name, body) {
      const res = await fetch(`${url.origin}/api/call/${name}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(20_000),
      })
      return (await res.json()) as { ok: boolean; value?: unknown; error?: unknown }
    },
  }
}

/** Asks the host for its session again and again while `until` is false; returns the slowest answer, ms. */
async function slowestAnswer(
  host: Awaited<ReturnType<typeof startHost>>,
  until: () => Promise<boolean>,
): Promise<number> {
  let slowest = 0
  for (let i = 0; i < 600 && !(await until()); i++) {
    const t = performance.now()
    const r = await host.call('getSession', {})
    slowest = Math.max(slowest, performance.now() - t)
    expect(r.ok).toBe(true)
    await new Promise((r) => setTimeout(r, 100))
  }
  return slowest
}

type Row = { name: string; status: string; lastError: string | null }

describe('the web host in demo mode, given hostile receipts', () => {
  it('keeps answering while the embedded emulator reads them, and each ends with a reason', async () => {
    const host = await startHost()
    const files = [
      { name: 'at.txt', base64: Buffer.from(atOneText(400 * 1024)).toString('base64') },
      { name: 'lt.eml', base64: lessThanEmail(400 * 1024).toString('base64') },
      { name: 'runs.pdf', base64: manyRunsPdf(1_000_000).toString('base64') },
      { name: 'bomb.pdf', base64: inflateBombPdf(1024).toString('base64') },
    ]
    const added = await host.call('addFileContents', { files, target: 'expenses' })
    expect(added.ok, JSON.stringify(added.error)).toBe(true)
    let rows: Row[] = []
    const settled = async () => {
      const r = await host.call('history', {})
      rows = (r.value as { rows: Row[] }).rows
      return (
        rows.length === files.length &&
        rows.every((row) => row.status === 'completed' || row.status === 'failed')
      )
    }
    const slowest = await slowestAnswer(host, settled)
    // A person clicking meanwhile is answered at once (the reading runs in the documents worker).
    expect(slowest).toBeLessThan(2000)
    const byName = Object.fromEntries(rows.map((r) => [r.name, r]))
    expect(byName['at.txt']?.status).toBe('completed')
    expect(byName['lt.eml']?.status).toBe('completed')
    expect(byName['runs.pdf']?.status).toBe('completed')
    expect(byName['bomb.pdf']).toMatchObject({
      status: 'failed',
      lastError: expect.stringContaining('expand to more than 128 MB'),
    })
  }, 180_000)

  it('stops promptly on SIGTERM while a document is being read', async () => {
    const host = await startHost()
    // Texts whose vendor search was quadratic (it ran on the thread that answers), and PDFs of a
    // million runs (each some hundreds of ms in the reader).
    const many = [
      ...Array.from({ length: 2 }, (_, i) => ({
        name: `at-${i}.txt`,
        base64: Buffer.from(`${i} ${atOneText(400 * 1024)}`).toString('base64'),
      })),
      ...Array.from({ length: 4 }, (_, i) => ({
        name: `runs-${i}.pdf`,
        base64: manyRunsPdf(1_000_000 + i).toString('base64'),
      })),
    ]
    // Sent in direct mode: the emulator reads each within the upload's own request.
    expect(
      (await host.call('addFileContents', { files: many, target: 'expenses', processType: 'direct' })).ok,
    ).toBe(true)
    await waitFor(
      'an upload on its way',
      async () => {
        const r = await host.call('history', {})
        return (r.value as { rows: Row[] }).rows.some((row) => row.status === 'uploading')
      },
      60_000,
    )
    // The emulator has the first files now and is reading them.
    await new Promise((r) => setTimeout(r, 500))
    const t = performance.now()
    child!.kill('SIGTERM')
    const code = await new Promise<number | null>((resolve) => child!.once('exit', (c) => resolve(c)))
    expect(performance.now() - t).toBeLessThan(5000)
    expect(code).toBe(0)
    expect(host.err()).toContain('bookdrop: stopped')
  }, 120_000)
})
