import { createRequire } from 'node:module'
import { API_KEY_ENV } from './env-store'
import {
  KEYCHAIN_SERVICE,
  type SecretStore,
  type SecretStoreInfo,
  SecretStoreError,
  checkAccount,
} from './secret-store'

/** The part of keytar's API Bookdrop uses (declared here so type-checking never needs keytar installed). */
export interface KeytarLike {
  getPassword(service: string, account: string): Promise<string | null>
  setPassword(service: string, account: string, password: string): Promise<void>
  deletePassword(service: string, account: string): Promise<boolean>
}

export type KeytarLoader = () => Promise<KeytarLike>

/**
 * Loads keytar lazily. It is an optionalDependency (npm install carries on when it cannot build), so a
 * missing or broken native module is an ordinary failure here, never a crash at import time.
 * createRequire rather than import(): keytar is CommonJS, and this keeps the bundler from inlining it.
 */
export const loadKeytar: KeytarLoader = async () => {
  const require = createRequire(import.meta.url)
  const mod = require('keytar') as Partial<KeytarLike> & { default?: Partial<KeytarLike> }
  const k = typeof mod.getPassword === 'function' ? mod : mod.default
  if (
    !k ||
    typeof k.getPassword !== 'function' ||
    typeof k.setPassword !== 'function' ||
    typeof k.deletePassword !== 'function'
  ) {
    throw new Error('the keytar module does not export getPassword, setPassword and deletePassword')
  }
  return k as KeytarLike
}

/** The exact words shown on Linux when no Secret Service answers. */
export const NO_SECRET_SERVICE_PROBLEM =
  'No OS keychain is available (Secret Service not running): install and unlock gnome-keyring or KWallet, ' +
  `or use the headless mode with ${API_KEY_ENV}`

export function keychainLabel(platform: NodeJS.Platform = process.platform): string {
  if (platform === 'darwin') return 'macOS Keychain'
  if (platform === 'win32') return 'Windows Credential Manager'
  return 'OS keychain (Secret Service)'
}

function errorText(err: unknown): string {
  if (err instanceof Error) return err.message
  return typeof err === 'string' ? err : 'unknown error'
}

/**
 * What went wrong with the keychain, in words a person can act on. keytar's errors come from the OS
 * (libsecret, Security.framework, CredMan) and never contain the password.
 */
export function describeKeychainFailure(err: unknown, platform: NodeJS.Platform = process.platform): string {
  const text = errorText(err)
  if (platform === 'linux') {
    if (
      (err instanceof SecretStoreError && err.code === 'timeout') ||
      /autolaunch|dbus|d-bus|org\.freedesktop\.secrets|ServiceUnknown|was not provided by any|secret service|No such (file|interface)|Could not connect|Connection refused/i.test(
        text,
      )
    ) {
      return NO_SECRET_SERVICE_PROBLEM
    }
    if (/locked|unlock|prompt|dismissed/i.test(text)) {
      return (
        `The OS keychain is locked (${text}): unlock your login keyring (gnome-keyring or KWallet) and try again, ` +
        `or use the headless mode with ${API_KEY_ENV}`
      )
    }
  }
  return `The ${keychainLabel(platform)} is not working (${text}); try again, or use the headless mode with ${API_KEY_ENV}`
}

/** Rejects with a SecretStoreError('timeout') when `p` has not settled after `ms` (0: wait forever). */
export function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  if (!(ms > 0)) return p
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () =>
        reject(
          new SecretStoreError(
            'timeout',
            `The OS keychain did not answer within ${Math.round(ms / 100) / 10} s (${what}).`,
          ),
        ),
      ms,
    )
    // A hung keychain call must not keep the process alive on our account.
    timer.unref?.()
    p.then(
      (v) => {
        clearTimeout(timer)
        resolve(v)
      },
      (e: unknown) => {
        clearTimeout(timer)
        reject(e instanceof Error ? e : new Error(errorText(e)))
      },
    )
  })
}

export interface KeytarSecretStoreOptions {
  /** Keychain service; 'Bookdrop' unless a test needs its own. */
  service?: string
  /**
   * Longest wait for one keychain call, ms (0: no limit). Generous by default, because the OS may be
   * showing an unlock prompt to a person.
   */
  timeoutMs?: number
  platform?: NodeJS.Platform
}

/** The OS keychain through keytar: service 'Bookdrop', one account per secret. */
export class KeytarSecretStore implements SecretStore {
  readonly service: string
  readonly #keytar: KeytarLike
  readonly #timeoutMs: number
  readonly #platform: NodeJS.Platform

  constructor(keytar: KeytarLike, opts: KeytarSecretStoreOptions = {}) {
    this.#keytar = keytar
    this.service = opts.service ?? KEYCHAIN_SERVICE
    this.#timeoutMs = opts.timeoutMs ?? 60_000
    this.#platform = opts.platform ?? process.platform
  }

  /** Loads keytar and builds the store; throws SecretStoreError('unavailable') when keytar cannot load. */
  static async load(
    opts: KeytarSecretStoreOptions & { loader?: KeytarLoader } = {},
  ): Promise<KeytarSecretStore> {
    let keytar: KeytarLike
    try {
      keytar = await (opts.loader ?? loadKeytar)()
    } catch (err) {
      throw new SecretStoreError(
        'unavailable',
        `The OS keychain module (keytar) could not be loaded (${errorText(err)}): run npm install again, ` +
          `or use the headless mode with ${API_KEY_ENV}`,
        { cause: err },
      )
    }
    return new KeytarSecretStore(keytar, opts)
  }

  async get(account: string): Promise<string | null> {
    checkAccount(account)
    return this.#call('reading a key', () => this.#keytar.getPassword(this.service, account))
  }

  async set(account: string, secret: string): Promise<void> {
    checkAccount(account)
    if (typeof secret !== 'string' || secret.length === 0) {
      throw new SecretStoreError('failed', 'An empty secret cannot be saved in the OS keychain.')
    }
    await this.#call('saving a key', () => this.#keytar.setPassword(this.service, account, secret))
  }

  async delete(account: string): Promise<boolean> {
    checkAccount(account)
    return this.#call('deleting a key', () => this.#keytar.deletePassword(this.service, account))
  }

  describe(): SecretStoreInfo {
    return { backend: 'keytar', persistent: true, label: keychainLabel(this.#platform) }
  }

  toJSON(): SecretStoreInfo {
    return this.describe()
  }

  async #call<T>(what: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await withTimeout(Promise.resolve().then(fn), this.#timeoutMs, what)
    } catch (err) {
      if (err instanceof SecretStoreError) {
        throw new SecretStoreError(err.code, `${describeKeychainFailure(err, this.#platform)} (${what})`, {
          cause: err,
        })
      }
      throw new SecretStoreError('unavailable', `${describeKeychainFailure(err, this.#platform)} (${what})`, {
        cause: err,
      })
    }
  }
}
