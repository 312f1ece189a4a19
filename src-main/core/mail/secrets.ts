/**
 * Where a mail password comes from: the OS keychain (filed under `mail:<user>@<host>:<port>`, the
 * same entry for the app and the headless mode), or BOOKDROP_MAIL_PASSWORD for the headless mode
 * where no keychain works. Never the database, a log, an error message or the renderer.
 */
import type { MailAccountConfig } from '../../../contract/types'
import type { SecretStore } from '../secrets/secret-store'
import { mailSecretAccount } from './config'
import type { MailPasswords } from './service'

export const MAIL_PASSWORD_ENV = 'BOOKDROP_MAIL_PASSWORD'

/** True when the store keeps secrets of its own (the keychain, or memory): not the read-only API-key variable. */
export function storesSecrets(store: SecretStore): boolean {
  return store.describe().backend !== 'env'
}

/**
 * Passwords from BOOKDROP_MAIL_PASSWORD when it is set (it wins: the headless mode's way), else
 * from the keychain. A read-only environment store is never asked: it answers BOOKDROP_API_KEY for
 * any account, and the API key must never be sent to a mail server.
 */
export function mailPasswords(
  store: SecretStore | null,
  env: NodeJS.ProcessEnv = process.env,
): MailPasswords {
  return async (account: MailAccountConfig) => {
    const fromEnv = env[MAIL_PASSWORD_ENV]
    if (fromEnv && fromEnv.length > 0) return fromEnv
    if (!store || !storesSecrets(store)) return null
    try {
      return await store.get(mailSecretAccount(account))
    } catch {
      return null
    }
  }
}
