import { type SecretStore, type SecretStoreInfo, checkAccount } from './secret-store'

/**
 * Secrets held in this process only. Use it ONLY for the in-process demo mode, whose keys belong to
 * the embedded emulator and die with it; never as a fallback for real keys (a real key that is not in
 * the OS keychain would silently vanish at the next start). The map is private (a `#` field), so the
 * secrets do not show in JSON.stringify or util.inspect of the store.
 */
export class MemorySecretStore implements SecretStore {
  readonly #secrets = new Map<string, string>()

  async get(account: string): Promise<string | null> {
    checkAccount(account)
    return this.#secrets.get(account) ?? null
  }

  async set(account: string, secret: string): Promise<void> {
    checkAccount(account)
    this.#secrets.set(account, secret)
  }

  async delete(account: string): Promise<boolean> {
    checkAccount(account)
    return this.#secrets.delete(account)
  }

  describe(): SecretStoreInfo {
    return { backend: 'memory', persistent: false, label: 'memory (demo mode only; forgotten on exit)' }
  }

  toJSON(): SecretStoreInfo {
    return this.describe()
  }
}
