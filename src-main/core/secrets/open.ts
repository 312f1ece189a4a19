import { randomBytes } from 'node:crypto'
import { EnvSecretStore } from './env-store'
import { KeytarSecretStore, type KeytarLoader, describeKeychainFailure, withTimeout } from './keytar-store'
import { KEYCHAIN_SERVICE, type SecretStore, SecretStoreError } from './secret-store'

export interface OpenSecretStoreOptions {
  /** Keychain service name; 'Bookdrop' by default. */
  service?: string
  /** Longest wait for the whole probe (set + get + delete), ms. A missing Secret Service can hang. */
  probeTimeoutMs?: number
  /** Longest wait for each later keychain call, ms (see KeytarSecretStoreOptions.timeoutMs). */
  timeoutMs?: number
  /** Where BOOKDROP_API_KEY is read from when the keychain does not work; process.env by default. */
  env?: NodeJS.ProcessEnv
  platform?: NodeJS.Platform
  /** How keytar is loaded (tests inject failures); the real module by default. */
  loader?: KeytarLoader
}

export interface OpenedSecretStore {
  /** The OS keychain when it works; otherwise the read-only BOOKDROP_API_KEY store. */
  store: SecretStore
  /** Null when the OS keychain works; otherwise what is wrong and what to do, in plain words. */
  problem: string | null
  /** The underlying error text when there is a problem, for a log line (never holds a secret). */
  detail?: string
}

/** Probe account: unique per probe so two processes probing at once never collide. */
function probeAccount(): string {
  return `__bookdrop_probe__:${process.pid}:${randomBytes(6).toString('hex')}`
}

/**
 * Opens the OS keychain and proves it works with a set + get + delete round trip on a throwaway
 * account, under a timeout. Never throws: when the keychain is missing, locked, hung or keytar cannot
 * load, it returns the read-only EnvSecretStore (BOOKDROP_API_KEY, for the headless mode) and a
 * `problem` that says plainly what is wrong — on Linux without a Secret Service:
 * "No OS keychain is available (Secret Service not running): install and unlock gnome-keyring or
 * KWallet, or use the headless mode with BOOKDROP_API_KEY".
 *
 * Note: a hung keychain call cannot be cancelled (it runs on a libuv worker thread); the timeout only
 * stops us waiting for it.
 */
export async function openSecretStore(opts: OpenSecretStoreOptions = {}): Promise<OpenedSecretStore> {
  const platform = opts.platform ?? process.platform
  const fallback = (problem: string, err: unknown): OpenedSecretStore => ({
    store: new EnvSecretStore({ env: opts.env, problem }),
    problem,
    detail: err instanceof Error ? err.message : String(err),
  })

  let keytarStore: KeytarSecretStore
  try {
    keytarStore = await KeytarSecretStore.load({
      service: opts.service ?? KEYCHAIN_SERVICE,
      timeoutMs: opts.timeoutMs,
      platform,
      loader: opts.loader,
    })
  } catch (err) {
    return fallback(err instanceof Error ? err.message : String(err), err)
  }

  const account = probeAccount()
  const value = randomBytes(16).toString('hex')
  try {
    await withTimeout(
      (async () => {
        await keytarStore.set(account, value)
        const back = await keytarStore.get(account)
        await keytarStore.delete(account)
        if (back !== value) {
          throw new SecretStoreError('failed', 'a value written to the keychain did not read back the same')
        }
      })(),
      opts.probeTimeoutMs ?? 5_000,
      'probe',
    )
  } catch (err) {
    // Best effort: if the set landed but something later failed, do not leave the probe behind
    // (not after a timeout: that call would hang too).
    if (!(err instanceof SecretStoreError && err.code === 'timeout')) {
      await keytarStore.delete(account).catch(() => undefined)
    }
    const cause = err instanceof SecretStoreError && err.cause !== undefined ? err.cause : err
    return fallback(describeKeychainFailure(cause, platform), cause)
  }
  return { store: keytarStore, problem: null }
}
