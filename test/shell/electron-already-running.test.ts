/**
 * The desktop app started on a data folder another Bookdrop process holds (the headless mode, say):
 * it says so in a native dialog, naming that process, and quits with code 4; nothing else runs.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { type DataDirLock, lockDataDir } from '../../src-main/core/store/data-dir'
import { FakeBrowserWindow, fake } from './fake-electron'

vi.mock('electron', async () => (await import('./fake-electron')).electronModule())
vi.mock(import('../../src-main/core/secrets'), async (importOriginal) => {
  const real = await importOriginal()
  return { ...real, openSecretStore: async () => ({ store: new real.MemorySecretStore(), problem: null }) }
})

let dataDir: string
let held: DataDirLock

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'bookdrop-shell-taken-'))
  held = lockDataDir(dataDir) // as a headless run on the same folder would
  fake.app.userData = dataDir
  vi.stubEnv('ELECTRON_RENDERER_URL', '')
  process.argv.push('--no-demo')
  await import('../../src-main/electron/main')
  fake.app.makeReady()
  await vi.waitFor(() => expect(fake.app.exitCode).not.toBeNull(), { timeout: 20_000, interval: 20 })
})

afterAll(async () => {
  held.release()
  process.argv.splice(process.argv.indexOf('--no-demo'), 1)
  vi.unstubAllEnvs()
  await rm(dataDir, { recursive: true, force: true })
})

describe('a data folder another process holds, on the desktop', () => {
  it('explains it, naming the other process, and quits with 4 before any window or handler', () => {
    expect(fake.errorBoxes).toEqual([
      { title: 'Bookdrop is already running', content: expect.stringContaining(`(pid ${process.pid})`) },
    ])
    expect(fake.app.exitCode).toBe(4)
    expect(FakeBrowserWindow.all).toHaveLength(0)
    expect(fake.ipcHandlers.size).toBe(0)
  })
})
