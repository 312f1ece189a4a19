/**
 * A profile's entries in the keychain (its key at the profile's id, an OAuth profile's bearer token
 * at `bearerAccount(id)`), saved or replaced together with profiles.json: the file is written only
 * after the keychain, and the keychain is put back as it was when the file cannot be written.
 */
import { bearerAccount } from './profile-rules'
import type { SecretStore } from './secret-store'

/** A new profile: saves its key (and token), then `write`s the file; undoes the keychain if that fails. */
export async function saveNewSecrets(
  store: SecretStore,
  profileId: string,
  secret: string,
  bearer: string | undefined,
  write: () => Promise<void>,
): Promise<void> {
  // Keychain first, then the file; undo the keychain if the file cannot be written.
  await store.set(profileId, secret)
  try {
    if (bearer !== undefined) await store.set(bearerAccount(profileId), bearer)
    await write()
  } catch (err) {
    await store.delete(profileId).catch(() => undefined)
    if (bearer !== undefined) await store.delete(bearerAccount(profileId)).catch(() => undefined)
    throw err
  }
}

/**
 * A rotation: saves the new key and/or token, then `write`s the file; when any step fails, the
 * entries replaced are put back as they were (`old`: null where there was none).
 */
export async function replaceSecrets(
  store: SecretStore,
  profileId: string,
  next: { secret?: string; bearer?: string },
  old: { secret: string | null; bearer: string | null },
  write: () => Promise<void>,
): Promise<void> {
  const restore = async () => {
    if (next.secret !== undefined) {
      await (old.secret === null ? store.delete(profileId) : store.set(profileId, old.secret)).catch(
        () => undefined,
      )
    }
    if (next.bearer !== undefined) {
      const acct = bearerAccount(profileId)
      await (old.bearer === null ? store.delete(acct) : store.set(acct, old.bearer)).catch(() => undefined)
    }
  }
  try {
    if (next.secret !== undefined) await store.set(profileId, next.secret)
    if (next.bearer !== undefined) await store.set(bearerAccount(profileId), next.bearer)
    await write()
  } catch (err) {
    await restore()
    throw err
  }
}
