/**
 * Smoke test of the BUILT desktop shell: out/main/index.js (what electron-builder packages), booted in
 * plain Node with 'electron' resolved to the recording stand-in (this machine cannot run Electron).
 * Proves the bundle loads the renderer through app://, that every file the first page asks for is
 * served from out/renderer, that the preload it names exists, and that every call is registered.
 */
import { spawnSync } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { CALL_NAMES, GRANT_FILE_CHANNEL } from '../../contract'
import { APP_ENTRY_URL } from '../../src-main/shell/app-protocol'
import { buildRenderer, rendererBuilt } from '../../src-main/web-host'

const ROOT = join(import.meta.dirname, '..', '..')

interface Boot {
  windows: number
  loadedUrl: string | null
  loadedFile: string | null
  privileged: { scheme: string; afterReady: boolean }[]
  served: { url: string; status: number; type: string | null; inRenderer: boolean }[]
  refs: string[]
  preload: string
  preloadExists: boolean
  handlers: number
  listeners: string[]
}

let boot: Boot

beforeAll(async () => {
  if (!rendererBuilt()) expect(buildRenderer()).toBe(true)
  const dataDir = await mkdtemp(join(tmpdir(), 'bookdrop-built-'))
  try {
    const r = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--import', './test/shell/built/register.mjs', 'test/shell/built/boot.ts', dataDir],
      { cwd: ROOT, encoding: 'utf8', timeout: 60_000, env: { ...process.env, ELECTRON_RENDERER_URL: '' } },
    )
    const line = r.stdout.trim().split('\n').at(-1) ?? ''
    if (r.status !== 0 || !line.startsWith('{')) throw new Error(`boot failed (${r.status}): ${r.stderr}\n${r.stdout}`)
    boot = JSON.parse(line) as Boot
  } finally {
    await rm(dataDir, { recursive: true, force: true })
  }
}, 240_000)

describe('the built main bundle', () => {
  it('opens one window on app://bookdrop/index.html, never file://', () => {
    expect(boot.windows).toBe(1)
    expect(boot.loadedUrl).toBe(APP_ENTRY_URL)
    expect(boot.loadedFile).toBeNull()
    expect(boot.privileged).toEqual([expect.objectContaining({ scheme: 'app', afterReady: false })])
  })

  it('serves the first page and every file it asks for from out/renderer', () => {
    expect(boot.refs.length).toBeGreaterThanOrEqual(2) // the entry script and the icon, at least
    expect(boot.refs.some((r) => r.endsWith('.js'))).toBe(true)
    for (const s of boot.served) {
      expect(s, s.url).toMatchObject({ status: 200, inRenderer: true })
      expect(s.url.startsWith('app://bookdrop/'), s.url).toBe(true)
    }
    expect(boot.served[0]!.type).toBe('text/html; charset=utf-8')
  })

  it('names a preload that exists, and registers every call and the file-grant channel', () => {
    expect(boot.preload).toMatch(/out[/\\]preload[/\\]index\.cjs$/)
    expect(boot.preloadExists).toBe(true)
    expect(boot.handlers).toBe(CALL_NAMES.length)
    expect(boot.listeners).toEqual([GRANT_FILE_CHANNEL])
  })
})
