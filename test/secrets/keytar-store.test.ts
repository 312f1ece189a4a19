/**
 * KeytarSecretStore and openSecretStore against the real OS keychain (gnome-keyring under
 * scripts/with-keyring.mjs on Linux). Every entry is checked with keytar directly.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { KEYCHAIN_SERVICE, KeytarSecretStore, openSecretStore } from '../../src-main/core/secrets'
import { RUN_ID, keychainProblem, keychainTitle, rawKeytar, skipKeychain } from './keychain-helpers'

const created = new Set<string>()
function account(label: string): string {
  const a = `bookdrop-test:${RUN_ID}:${label}`
  created.add(a)
  return a
}

// A clean clone must build keytar's native binary (npm ci runs its install script, allowed in
// package.json's allowScripts). In CI a keytar that cannot load fails here, by name, instead of
// every keychain test failing with a vaguer message; elsewhere it is reported and skipped.
describe('keytar itself', () => {
  const mustLoad = process.env.CI === 'true'
  it.skipIf(!mustLoad)('loads with its native binary (required in CI)', async () => {
    const { createRequire } = await import('node:module')
    const require = createRequire(import.meta.url)
    let loaded: { getPassword?: unknown } | null = null
    let why = ''
    try {
      loaded = require('keytar') as { getPassword?: unknown }
    } catch (e) {
      why = (e as Error).message
    }
    expect(why, 'keytar could not load: run npm ci again (it needs libsecret-1-dev and a C++ toolchain)').toBe('')
    expect(typeof loaded?.getPassword).toBe('function')
  })
})

describe.skipIf(skipKeychain)(keychainTitle('KeytarSecretStore on the real OS keychain'), () => {
  afterAll(async () => {
    const k = rawKeytar()
    for (const a of created) await k.deletePassword(KEYCHAIN_SERVICE, a).catch(() => false)
  })

  it('finds a working keychain (in CI this must pass: the keychain is required there)', () => {
    expect(keychainProblem).toBeNull()
  })

  it('openSecretStore returns the keytar store, persistent, with no problem, and leaves no probe entry', async () => {
    const { store, problem } = await openSecretStore()
    expect(problem).toBeNull()
    expect(store).toBeInstanceOf(KeytarSecretStore)
    expect(store.describe()).toMatchObject({ backend: 'keytar', persistent: true })
    expect(store.describe().problem).toBeUndefined()
    const left = await rawKeytar().findCredentials(KEYCHAIN_SERVICE)
    expect(left.filter((c) => c.account.startsWith('__bookdrop_probe__'))).toEqual([])
  })

  it('set, get, replace and delete go to the keychain under service "Bookdrop"', async () => {
    const store = await KeytarSecretStore.load()
    const k = rawKeytar()
    const a = account('roundtrip')
    const first = `svc_sk_test_${RUN_ID}_first`
    const second = `svc_sk_test_${RUN_ID}_second`

    expect(await store.get(a)).toBeNull()
    await store.set(a, first)
    expect(await k.getPassword('Bookdrop', a)).toBe(first)
    expect(await store.get(a)).toBe(first)

    await store.set(a, second)
    expect(await k.getPassword('Bookdrop', a)).toBe(second)

    expect(await store.delete(a)).toBe(true)
    expect(await k.getPassword('Bookdrop', a)).toBeNull()
    expect(await store.delete(a)).toBe(false)
    expect(await store.get(a)).toBeNull()
  })

  it('reads what keytar wrote (another process, the same keychain)', async () => {
    const store = await KeytarSecretStore.load()
    const a = account('external')
    await rawKeytar().setPassword('Bookdrop', a, 'written-elsewhere')
    expect(await store.get(a)).toBe('written-elsewhere')
    await store.delete(a)
  })

  it('keeps secrets apart per account and per service', async () => {
    const store = await KeytarSecretStore.load()
    const other = await KeytarSecretStore.load({ service: `Bookdrop-test-${RUN_ID}` })
    const a = account('a')
    const b = account('b')
    await store.set(a, 'secret-a')
    await store.set(b, 'secret-b')
    expect(await store.get(a)).toBe('secret-a')
    expect(await store.get(b)).toBe('secret-b')
    expect(await other.get(a)).toBeNull()
    await store.delete(a)
    expect(await store.get(b)).toBe('secret-b')
    await store.delete(b)
  })

  it('stores Unicode and long secrets intact', async () => {
    const store = await KeytarSecretStore.load()
    const a = account('unicode')
    const secret = `ключ-🔑-${'x'.repeat(2000)}`
    await store.set(a, secret)
    expect(await store.get(a)).toBe(secret)
    await store.delete(a)
  })

  it('never shows a secret in JSON or inspect output of the store', async () => {
    const store = await KeytarSecretStore.load()
    const a = account('json')
    const secret = `svc_sk_json_${RUN_ID}`
    await store.set(a, secret)
    const { inspect } = await import('node:util')
    expect(JSON.stringify(store)).not.toContain(secret)
    expect(inspect(store, { depth: 10 })).not.toContain(secret)
    await store.delete(a)
  })
})
