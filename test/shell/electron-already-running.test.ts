/**
 * The desktop app started on a data folder another Bookdrop process holds (the headless mode, say):
 * it says so in a native dialog, naming that process, and quits with code 4; nothing else runs.
 */
import { describe, expect, it, vi } from 'vitest'
import { type DataDirLock, lockDataDir } from '../../src-main/core/store/data-dir'
import { FakeBrowserWindow, fake } from './fake-electron'
import { useDesktop } from './desktop'

vi.mock('electron', async () => (await import('./fake-electron')).electronModule())
vi.mock(import('../../src-main/core/secrets'), async (real) =>
  (await import('./desktop')).withMemoryKeychain(await real()),
)

let held: DataDirLock
useDesktop({
  prefix: 'bookdrop-shell-taken-',
  prepare: (dataDir) => {
    held = lockDataDir(dataDir) // as a headless run on the same folder would
  },
  ready: () => expect(fake.app.exitCode).not.toBeNull(),
  cleanup: () => held.release(),
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
