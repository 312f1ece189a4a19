/**
 * The stores that need no keychain (memory, env), openSecretStore's fallbacks (keytar missing, a hung
 * keychain, no Secret Service at all — the last in a child process with a broken D-Bus address), and
 * the atomic file write. These always run.
 */
import { execFile } from 'node:child_process'
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { inspect, promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import {
  EnvSecretStore,
  MemorySecretStore,
  NO_SECRET_SERVICE_PROBLEM,
  SecretStoreError,
  describeKeychainFailure,
  openSecretStore,
  writeFileAtomic,
} from '../../src-main/core/secrets'

const run = promisify(execFile)

describe('MemorySecretStore (demo mode only)', () => {
  it('keeps secrets per account, in memory, and says it is not persistent', async () => {
    const s = new MemorySecretStore()
    expect(await s.get('a')).toBeNull()
    await s.set('a', 'svc_sk_memory_secret')
    await s.set('b', 'other')
    expect(await s.get('a')).toBe('svc_sk_memory_secret')
    expect(await s.delete('a')).toBe(true)
    expect(await s.delete('a')).toBe(false)
    expect(await s.get('b')).toBe('other')
    expect(s.describe()).toMatchObject({ backend: 'memory', persistent: false })
  })

  it('hides its secrets from JSON and inspect', async () => {
    const s = new MemorySecretStore()
    await s.set('a', 'svc_sk_memory_secret')
    expect(JSON.stringify(s)).not.toContain('svc_sk_memory_secret')
    expect(inspect(s, { depth: 10, showHidden: true })).not.toContain('svc_sk_memory_secret')
  })

  it('refuses unusable account names', async () => {
    const s = new MemorySecretStore()
    await expect(s.get('')).rejects.toMatchObject({ code: 'invalid_account' })
    await expect(s.set('a\nb', 'x')).rejects.toBeInstanceOf(SecretStoreError)
  })
})

describe('EnvSecretStore (headless mode)', () => {
  it('reads BOOKDROP_API_KEY for any account, trimmed', async () => {
    const s = new EnvSecretStore({ env: { BOOKDROP_API_KEY: '  svc_sk_from_env\n' } })
    expect(s.hasSecret).toBe(true)
    expect(await s.get('profile-1')).toBe('svc_sk_from_env')
    expect(await s.get('anything')).toBe('svc_sk_from_env')
    expect(s.describe()).toMatchObject({ backend: 'env', persistent: false })
  })

  it('returns null when the variable is unset or blank', async () => {
    expect(await new EnvSecretStore({ env: {} }).get('a')).toBeNull()
    expect(await new EnvSecretStore({ env: { BOOKDROP_API_KEY: '   ' } }).get('a')).toBeNull()
  })

  it('is read-only: set and delete throw a clear error without the secret', async () => {
    const s = new EnvSecretStore({
      env: { BOOKDROP_API_KEY: 'svc_sk_from_env' },
      problem: 'No keychain here.',
    })
    const setErr = await s.set('a', 'svc_sk_new_secret').catch((e: unknown) => e)
    expect(setErr).toBeInstanceOf(SecretStoreError)
    expect((setErr as SecretStoreError).code).toBe('read_only')
    expect((setErr as Error).message).toMatch(
      /No keychain here\. Keys cannot be saved here.*BOOKDROP_API_KEY.*read-only/,
    )
    expect((setErr as Error).message).not.toContain('svc_sk_new_secret')
    expect((setErr as Error).message).not.toContain('svc_sk_from_env')
    await expect(s.delete('a')).rejects.toThrow(/cannot be deleted/)
    expect(s.describe().problem).toBe('No keychain here.')
  })

  it('hides the key from JSON and inspect', () => {
    const s = new EnvSecretStore({ env: { BOOKDROP_API_KEY: 'svc_sk_from_env' } })
    expect(JSON.stringify(s)).not.toContain('svc_sk_from_env')
    expect(inspect(s, { depth: 10, showHidden: true })).not.toContain('svc_sk_from_env')
  })
})

describe('openSecretStore never throws', () => {
  it('falls back to BOOKDROP_API_KEY when keytar cannot be loaded', async () => {
    const { store, problem } = await openSecretStore({
      env: { BOOKDROP_API_KEY: 'svc_sk_env_key' },
      loader: async () => {
        throw new Error("Cannot find module 'keytar'")
      },
    })
    expect(problem).toMatch(/keytar\) could not be loaded \(Cannot find module 'keytar'\).*BOOKDROP_API_KEY/)
    expect(store.describe()).toMatchObject({ backend: 'env', problem })
    expect(await store.get('x')).toBe('svc_sk_env_key')
  })

  it('gives up on a keychain that hangs, within the probe timeout, and says so plainly on Linux', async () => {
    const never = () => new Promise<never>(() => {})
    const started = Date.now()
    const { store, problem } = await openSecretStore({
      env: {},
      platform: 'linux',
      probeTimeoutMs: 300,
      loader: async () => ({ getPassword: never, setPassword: never, deletePassword: never }),
    })
    expect(Date.now() - started).toBeLessThan(3000)
    expect(problem).toBe(NO_SECRET_SERVICE_PROBLEM)
    expect(store.describe().backend).toBe('env')
    expect(await store.get('x')).toBeNull()
    await expect(store.set('x', 'y')).rejects.toThrow(NO_SECRET_SERVICE_PROBLEM)
  })

  it('refuses a keychain that does not read back what was written', async () => {
    const { problem } = await openSecretStore({
      env: {},
      platform: 'darwin',
      loader: async () => ({
        getPassword: async () => 'something else',
        setPassword: async () => undefined,
        deletePassword: async () => true,
      }),
    })
    expect(problem).toMatch(
      /macOS Keychain is not working \(a value written to the keychain did not read back the same\)/,
    )
  })

  it('names the problem: no Secret Service, locked keyring, anything else', () => {
    expect(describeKeychainFailure(new Error('Cannot autolaunch D-Bus without X11 $DISPLAY'), 'linux')).toBe(
      NO_SECRET_SERVICE_PROBLEM,
    )
    expect(
      describeKeychainFailure(
        new Error('The name org.freedesktop.secrets was not provided by any .service files'),
        'linux',
      ),
    ).toBe(NO_SECRET_SERVICE_PROBLEM)
    expect(
      describeKeychainFailure(new Error('Cannot create an item in a locked collection'), 'linux'),
    ).toMatch(/^The OS keychain is locked .*unlock your login keyring/)
    expect(describeKeychainFailure(new Error('boom'), 'win32')).toMatch(
      /^The Windows Credential Manager is not working \(boom\)/,
    )
  })

  it.runIf(process.platform === 'linux')(
    'in a process with no reachable Secret Service, returns the plain Linux message and the env key',
    async () => {
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bookdrop-test-bus',
        BOOKDROP_API_KEY: 'svc_sk_child_env_key',
      }
      delete env.DISPLAY
      delete env.WAYLAND_DISPLAY
      const { stdout } = await run(
        process.execPath,
        ['--import', 'tsx', join(import.meta.dirname, 'fixtures/open-store.ts')],
        {
          env,
          timeout: 20_000,
        },
      )
      const out = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as {
        problem: string | null
        info: { backend: string; persistent: boolean; problem?: string }
        secret: string | null
      }
      expect(out.problem).toBe(
        'No OS keychain is available (Secret Service not running): install and unlock gnome-keyring or KWallet, or use the headless mode with BOOKDROP_API_KEY',
      )
      expect(out.info).toMatchObject({ backend: 'env', persistent: false, problem: out.problem })
      expect(out.secret).toBe('svc_sk_child_env_key')
    },
  )
})

describe('writeFileAtomic', () => {
  const dirs: string[] = []
  afterAll(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true })
  })

  it('replaces the file whole and leaves no temporary file behind', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bookdrop-atomic-'))
    dirs.push(dir)
    const file = join(dir, 'profiles.json')
    await writeFile(file, 'old')
    await writeFileAtomic(file, '{"new":true}')
    expect(await readFile(file, 'utf8')).toBe('{"new":true}')
    expect(await readdir(dir)).toEqual(['profiles.json'])
  })

  it('many concurrent writers: the file always holds one complete version', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bookdrop-atomic-'))
    dirs.push(dir)
    const file = join(dir, 'f.json')
    const versions = Array.from({ length: 20 }, (_, i) => JSON.stringify({ i, pad: 'x'.repeat(10_000 + i) }))
    await Promise.all(versions.map((v) => writeFileAtomic(file, v)))
    expect(versions).toContain(await readFile(file, 'utf8'))
    expect(await readdir(dir)).toEqual(['f.json'])
  })

  it('removes its temporary file when the target cannot be replaced', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bookdrop-atomic-'))
    dirs.push(dir)
    // The target is a non-empty directory: rename fails.
    const target = join(dir, 'busy')
    await writeFile(join(dir, 'keep'), '')
    const { mkdir } = await import('node:fs/promises')
    await mkdir(target)
    await writeFile(join(target, 'inside'), '')
    await expect(writeFileAtomic(target, 'x')).rejects.toThrow()
    expect((await readdir(dir)).sort()).toEqual(['busy', 'keep'])
  })
})
