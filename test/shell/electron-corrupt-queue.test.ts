/**
 * The desktop app started on a queue database that cannot be read: it asks, in a native dialog,
 * whether to move the file aside (nothing deleted) and start fresh; on yes it opens normally.
 * (src-main/electron/main.ts against the recording stand-in, the real AppService and a real file.)
 */
import { readFile, readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { FakeBrowserWindow, fake } from './fake-electron'
import { useDesktop } from './desktop'

vi.mock('electron', async () => (await import('./fake-electron')).electronModule())
vi.mock(import('../../src-main/core/secrets'), async (real) =>
  (await import('./desktop')).withMemoryKeychain(await real()),
)

const garbage = Buffer.from('not a database at all; '.repeat(300))
const desktop = useDesktop({
  prefix: 'bookdrop-shell-corrupt-',
  prepare: async (dataDir) => {
    await writeFile(join(dataDir, 'bookdrop.db'), garbage)
    fake.messageBoxAnswer = 0 // "Move it aside and start fresh"
  },
  ready: () => expect(FakeBrowserWindow.all).toHaveLength(1),
})

describe('a queue database that cannot be read, on the desktop', () => {
  it('asks, naming the file, and offers to move it aside or quit', () => {
    expect(fake.messageBoxes).toHaveLength(1)
    const box = fake.messageBoxes[0]!
    expect(box.message).toBe('Bookdrop cannot read its upload queue.')
    expect(box.detail).toContain(join(desktop.dataDir, 'bookdrop.db'))
    expect(box.buttons).toEqual(['Move it aside and start fresh', 'Quit'])
  })

  it('moved it aside (kept, not deleted) and opened with an empty queue', async () => {
    const names = await readdir(desktop.dataDir)
    const aside = names.filter((n) => /^bookdrop\.db\.corrupt-\d{4}-/.test(n))
    expect(aside).toHaveLength(1)
    expect(await readFile(join(desktop.dataDir, aside[0]!))).toEqual(garbage)
    expect(fake.app.exitCode).toBeNull()
    expect(fake.ipcHandlers.size).toBeGreaterThan(0)
  })
})
