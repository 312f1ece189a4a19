/**
 * The desktop app's start for the tests that run the real src-main/electron/main.ts against the
 * recording stand-in (electron-*.test.ts). vi.mock holds only in the file that calls it, so each of
 * those files still says, at its top:
 *
 *   vi.mock('electron', async () => (await import('./fake-electron')).electronModule())
 *   vi.mock(import('../../src-main/core/secrets'), async (real) =>
 *     (await import('./desktop')).withMemoryKeychain(await real()))
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, vi } from 'vitest'
import type * as Secrets from '../../src-main/core/secrets'
import { fake } from './fake-electron'

/** The secrets module with the OS keychain replaced by memory. */
export function withMemoryKeychain(real: typeof Secrets): typeof Secrets {
  return { ...real, openSecretStore: async () => ({ store: new real.MemorySecretStore(), problem: null }) }
}

export interface DesktopStart {
  /** The data folder's name prefix, under the OS temp folder. */
  prefix: string
  /** Runs on the new data folder before the app starts. */
  prepare?: (dataDir: string) => void | Promise<void>
  /** Holds once the app is where the tests start (retried until it does, 20 s at most). */
  ready: () => void
  /** Runs after the file's tests, before the data folder is removed. */
  cleanup?: () => void
}

/**
 * Starts main.ts once, before the calling file's tests, on a fresh data folder and "not connected"
 * (--no-demo); after them, undoes the arguments and environment and removes the folder.
 */
export function useDesktop(start: DesktopStart): { readonly dataDir: string } {
  let dataDir = ''
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), start.prefix))
    await start.prepare?.(dataDir)
    fake.app.userData = dataDir
    vi.stubEnv('ELECTRON_RENDERER_URL', '')
    // Without a key the app would open on the embedded emulator; these tests start from "not connected".
    process.argv.push('--no-demo')
    await import('../../src-main/electron/main')
    fake.app.makeReady()
    await vi.waitFor(start.ready, { timeout: 20_000, interval: 20 })
  })
  afterAll(async () => {
    start.cleanup?.()
    process.argv.splice(process.argv.indexOf('--no-demo'), 1)
    vi.unstubAllEnvs()
    await rm(dataDir, { recursive: true, force: true })
  })
  return {
    get dataDir() {
      return dataDir
    },
  }
}
