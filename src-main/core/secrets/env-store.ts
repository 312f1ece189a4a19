import { type SecretStore, type SecretStoreInfo, SecretStoreError, checkAccount } from './secret-store'

/** The environment variable the headless mode takes its key from. */
export const API_KEY_ENV = 'BOOKDROP_API_KEY'

export interface EnvSecretStoreOptions {
  /** Where to read from; process.env by default. */
  env?: NodeJS.ProcessEnv
  /** Why the OS keychain is not used (from openSecretStore), shown in describe() and in set/delete errors. */
  problem?: string
}

/**
 * Read-only: every account reads the key in BOOKDROP_API_KEY (the headless mode runs one key at a
 * time), or null when it is unset or blank. Nothing can be saved or deleted: set and delete throw a
 * SecretStoreError that says where keys can be kept instead.
 *
 * The value is read once, at construction, and kept in a private field so it never shows in
 * JSON.stringify or util.inspect of the store.
 */
export class EnvSecretStore implements SecretStore {
  readonly #secret: string | null
  readonly #problem: string | undefined

  constructor(opts: EnvSecretStoreOptions = {}) {
    const raw = (opts.env ?? process.env)[API_KEY_ENV]
    const trimmed = raw?.trim()
    this.#secret = trimmed ? trimmed : null
    this.#problem = opts.problem
  }

  /** True when BOOKDROP_API_KEY holds a key. */
  get hasSecret(): boolean {
    return this.#secret !== null
  }

  async get(account: string): Promise<string | null> {
    checkAccount(account)
    return this.#secret
  }

  async set(account: string, _secret: string): Promise<void> {
    checkAccount(account)
    throw this.#readOnly('saved')
  }

  async delete(account: string): Promise<boolean> {
    checkAccount(account)
    throw this.#readOnly('deleted')
  }

  describe(): SecretStoreInfo {
    const info: SecretStoreInfo = {
      backend: 'env',
      persistent: false,
      label: `the ${API_KEY_ENV} environment variable (read-only)`,
    }
    if (this.#problem) info.problem = this.#problem
    return info
  }

  toJSON(): SecretStoreInfo {
    return this.describe()
  }

  #readOnly(what: 'saved' | 'deleted'): SecretStoreError {
    const why = this.#problem ? `${this.#problem} ` : ''
    return new SecretStoreError(
      'read_only',
      `${why}Keys cannot be ${what} here: the key comes from the ${API_KEY_ENV} environment variable, which is read-only. ` +
        `Set or unset ${API_KEY_ENV} yourself, or use a computer with an OS keychain to keep keys in profiles.`,
    )
  }
}
