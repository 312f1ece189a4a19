/**
 * Where API keys live. One interface, one implementation per platform capability:
 *
 * - KeytarSecretStore  the OS keychain (macOS Keychain, Windows Credential Manager, Secret Service on
 *                      Linux) through keytar. The only persistent store; the normal case.
 * - EnvSecretStore     read-only: the key from BOOKDROP_API_KEY, for the headless mode on machines
 *                      without a keychain. Nothing can be saved into it.
 * - MemorySecretStore  in-process only, for the demo mode's emulator keys (they die with the emulator).
 *
 * `openSecretStore()` (./open.ts) picks one. A secret never leaves a store except through `get`, and no
 * store ever writes one to disk, a log line or an error message.
 */

export type SecretBackend = 'keytar' | 'env' | 'memory'

export interface SecretStoreInfo {
  backend: SecretBackend
  /** True when a secret saved now is still there after a restart. */
  persistent: boolean
  /** A person-readable name of where secrets go, e.g. "macOS Keychain". */
  label: string
  /** Why this store is limited (e.g. no OS keychain), in words a person can act on. */
  problem?: string
}

export interface SecretStore {
  /** The secret saved for `account`, or null when there is none. */
  get(account: string): Promise<string | null>
  /** Saves (or replaces) the secret of `account`. Throws SecretStoreError when the store cannot save. */
  set(account: string, secret: string): Promise<void>
  /** Removes the secret of `account`; true when one was there. Throws SecretStoreError when it cannot. */
  delete(account: string): Promise<boolean>
  describe(): SecretStoreInfo
}

export type SecretStoreErrorCode =
  /** The store cannot be reached (no keychain, keychain locked, keytar missing). */
  | 'unavailable'
  /** The store is read-only (BOOKDROP_API_KEY). */
  | 'read_only'
  /** The keychain did not answer in time. */
  | 'timeout'
  /** An account name that cannot be used. */
  | 'invalid_account'
  | 'failed'

/** The one error a SecretStore throws. Its message never contains a secret. */
export class SecretStoreError extends Error {
  override readonly name = 'SecretStoreError'
  constructor(
    readonly code: SecretStoreErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options)
  }

  toJSON(): { name: string; code: SecretStoreErrorCode; message: string } {
    return { name: this.name, code: this.code, message: this.message }
  }
}

/** The keychain service name every Bookdrop secret is filed under. */
export const KEYCHAIN_SERVICE = 'Bookdrop'

/** True when `s` holds a C0 control character or DEL (line breaks included). */
export function hasControlChar(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c < 0x20 || c === 0x7f) return true
  }
  return false
}

/** Account names: non-empty, printable, bounded (keychains store them in clear, so never a secret). */
export function checkAccount(account: string): void {
  if (
    typeof account !== 'string' ||
    account.length === 0 ||
    account.length > 200 ||
    hasControlChar(account)
  ) {
    throw new SecretStoreError(
      'invalid_account',
      'A keychain account name must be 1 to 200 printable characters.',
    )
  }
}
