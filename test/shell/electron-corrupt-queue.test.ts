/**
 * The desktop app started on a queue database that cannot be read: it asks, in a native dialog,
 * whether to move the file aside (nothing deleted) and start fresh; on yes it opens normally.
 * (src-main/electron/main.ts against the recording stand-in, the real AppService and a real file.)
 */
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { FakeBrowserWindow, fake } from './fake-electron'

vi.mock('electron', async () => (await import('./fake-electron')).electronModule())
vi.mock(import('../../src-main/core/secrets'), async (importOriginal) => {
  const real = await importOriginal()
  return { ...real, openSecretStore: async () => ({ store: new real.MemorySecretStore(), problem: null }) }
})

let dataDir: string
const garbage = Buffer.from('not a database at all; '.repeat(300))

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'bookdrop-shell-corrupt-'))
  await writeFile(join(dataDir, 'bookdrop.db'), garbage)
  fake.app.userData = dataDir
  fake.messageBoxAnswer = 0 // "Move it aside and start fresh"
  vi.stubEnv('ELECTRON_RENDERER_URL', '')
  process.argv.push('--no-demo')
  await import('../../src-main/electron/main')
  fake.app.makeReady()
  await vi.waitFor(() => expect(FakeBrowserWindow.all).toHaveLength(1), { timeout: 20_000, interval: 20 })
})

afterAll(async () => {
  process.argv.splice(process.argv.indexOf('--no-demo'), 1)
  vi.unstubAllEnvs()
  await rm(dataDir, { recursive: true, force: true })
})

describe('a queue database that cannot be read, on the desktop', () => {
  it('asks, naming the file, and offers to move it aside or quit', () => {
    expect(fake.messageBoxes).toHaveLength(1)
    const box = fake.messageBoxes[0]!
    expect(box.message).toBe('Bookdrop cannot read its upload queue.')
    expect(box.detail).toContain(join(dataDir, 'bookdrop.db'))
    expect(box.buttons).toEqual(['Move it aside and start fresh', 'Quit'])
  })

  it('moved it aside (kept, not deleted) and opened with an empty queue', async () => {
    const names = await readdir(dataDir)
    const aside = names.filter((n) => /^bookdrop\.db\.corrupt-\d{4}-/.test(n))
    expect(aside).toHaveLength(1)
    expect(await readFile(join(dataDir, aside[0]!))).toEqual(garbage)
    expect(fake.app.exitCode).toBeNull()
    expect(fake.ipcHandlers.size).toBeGreaterThan(0)
  })
})
