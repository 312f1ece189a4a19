/**
 * The app service with the real OS keychain (`npm test` runs inside a private gnome-keyring): a key
 * added through the bridge lives in the keychain only, survives a restart, and goes with its profile.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { startSandbox } from '../../sandbox'
import { AppService } from '../../src-main/core/app-service'
import { dispatch } from '../../src-main/core/bridge'
import { openSecretStore } from '../../src-main/core/secrets'
import { RUN_ID, keychainTitle, rawKeytar, skipKeychain, sweepService } from '../secrets/keychain-helpers'
import { BUSINESS_KEY, FAST_ENGINE, fixtures, testShell } from './helpers'

const SERVICE = `Bookdrop-app-test-${RUN_ID}`

afterAll(async () => {
  await sweepService(SERVICE)
})

describe.skipIf(skipKeychain)(keychainTitle('app service with the OS keychain'), () => {
  it('add → keychain only; restart → still works; remove → gone from the keychain', async () => {
    const sb = await startSandbox({ fixtures: fixtures(), port: 0 })
    const dir = await mkdtemp(join(tmpdir(), 'bookdrop-app-kc-'))
    const dataDir = join(dir, 'data')
    const open = async () =>
      AppService.open({
        dataDir,
        host: 'electron',
        shell: testShell,
        secretStore: (await openSecretStore({ service: SERVICE })).store,
        engine: FAST_ENGINE,
      })
    try {
      let service = await open()
      const added = await dispatch(service, 'addProfile', {
        name: 'Bakery',
        environment: 'custom',
        baseUrl: sb.url,
        kind: 'business',
        secret: BUSINESS_KEY,
      })
      expect(added.ok).toBe(true)
      const id = added.ok ? added.value.id : ''
      expect(await rawKeytar().getPassword(SERVICE, id)).toBe(BUSINESS_KEY)
      expect(await readFile(join(dataDir, 'profiles.json'), 'utf8')).not.toContain(BUSINESS_KEY)
      const info = await dispatch(service, 'getAppInfo', {})
      expect(info.ok && info.value.keychain).toMatchObject({
        backend: 'keytar',
        persistent: true,
        problem: null,
      })
      await service.close()

      service = await open()
      const list = await dispatch(service, 'listProfiles', {})
      expect(list.ok && list.value.activeId).toBe(id)
      const inv = await dispatch(service, 'getInvoice', { id: 'INV-1001' })
      expect(inv.ok && inv.value.uuid).toBe('inv-1')
      const removed = await dispatch(service, 'removeProfile', { id })
      expect(removed.ok && removed.value).toEqual({ profiles: [], activeId: null })
      expect(await rawKeytar().getPassword(SERVICE, id)).toBeNull()
      await service.close()
    } finally {
      await sb.stop()
      await rm(dir, { recursive: true, force: true })
    }
  })
})
