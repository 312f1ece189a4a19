/**
 * Profiles: which key to use where. A profile is a name, an environment (production, sandbox or a
 * custom base URL), a kind (business key, partner key, or OAuth app key + bearer token) and what the
 * server told us about the key when it was validated (business name, uuid, currency, country).
 *
 * - Metadata lives in `<dataDir>/profiles.json` (written atomically), with the active profile's id.
 *   It never holds a secret.
 * - Secrets live in a SecretStore (the OS keychain), account = profile id; an OAuth profile's bearer
 *   token at `${id}:bearer`.
 * - A key is validated against the server before anything is saved, and refused with a message
 *   that says which key to use when it is a public key or the wrong kind for the profile.
 * - No error message, file or JSON of the manager ever contains a secret: every error thrown while a
 *   secret is in scope passes through `scrub`.
 *
 * This file is the manager (reads, serialised mutations, clients); its parts: `profile-rules.ts`
 * (the checks, the file's schema, ProfileError), `profile-keys.ts` (a new profile's input checked,
 * a key asked about at the server), `profile-keychain.ts` (keychain entries saved or replaced
 * with the file, undone on failure) and `profiles-file.ts` (reading and writing profiles.json).
 */
import { randomUUID } from 'node:crypto'
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { BookkeepingClient } from '../api'
import { replaceSecrets, saveNewSecrets } from './profile-keychain'
import { checkNewProfile, validateWithServer } from './profile-keys'
import { readProfilesFile, writeProfilesFile } from './profiles-file'
import { type SecretStore, type SecretStoreInfo } from './secret-store'
import { redact } from '../util'
import type { BusinessInfo, Profile, ProfileEnvironment, ProfileKind } from '../../../contract/types'

export type { BusinessInfo, Profile, ProfileEnvironment, ProfileKind }

export { redact }
export {
  PROFILE_KINDS,
  PROFILE_ENVIRONMENTS,
  PROFILES_FILE,
  ProfileError,
  bearerAccount,
  type NewProfileInput,
  type ProfileClientOptions,
  type ProfileErrorCode,
  type ProfileField,
} from './profile-rules'

import {
  knownBusiness,
  type NewProfileInput,
  type ProfileClientOptions,
  ProfileError,
  PROFILES_FILE,
  type ProfilesFile,
  EMPTY_FILE,
  bearerAccount,
  scrub,
  normName,
  checkName,
  checkSecret,
  checkKeyPrefix,
  envOf,
  authFor,
} from './profile-rules'

// ---------------------------------------------------------------------------------------------
// The manager
// ---------------------------------------------------------------------------------------------

export interface ProfileManagerOptions {
  /** Where profiles.json lives (created if missing). */
  dataDir: string
  /** Where keys live: the OS keychain (see openSecretStore). */
  store: SecretStore
  /** Added to every client the manager builds (timeouts, onResponse, user agent). */
  clientOptions?: ProfileClientOptions
}

/**
 * Profiles and their keys. One instance per data directory; mutations are serialised, and each one
 * re-reads profiles.json first so a change made by another process (the headless mode) is not lost.
 */
export class ProfileManager {
  readonly dataDir: string
  /** Path of profiles.json. */
  readonly file: string
  readonly #store: SecretStore
  readonly #clientOptions: ProfileClientOptions
  #data: ProfilesFile = structuredClone(EMPTY_FILE)
  #queue: Promise<unknown> = Promise.resolve()

  private constructor(opts: ProfileManagerOptions) {
    this.dataDir = opts.dataDir
    this.file = join(opts.dataDir, PROFILES_FILE)
    this.#store = opts.store
    this.#clientOptions = opts.clientOptions ?? {}
  }

  /** Opens (and creates if needed) the profile list in `dataDir`. Throws ProfileError('storage') on a damaged file. */
  static async open(opts: ProfileManagerOptions): Promise<ProfileManager> {
    const m = new ProfileManager(opts)
    try {
      await mkdir(opts.dataDir, { recursive: true, mode: 0o700 })
    } catch (err) {
      throw new ProfileError(
        'storage',
        `Cannot create the data folder ${opts.dataDir}: ${(err as Error).message}`,
      )
    }
    await m.reload()
    return m
  }

  // ---- reads ------------------------------------------------------------------------------------

  /** All profiles, oldest first (copies). */
  list(): Profile[] {
    return this.#data.profiles.map((p) => structuredClone(p))
  }

  get(id: string): Profile | undefined {
    const p = this.#data.profiles.find((x) => x.id === id)
    return p && structuredClone(p)
  }

  /** Case-insensitive. */
  findByName(name: string): Profile | undefined {
    const n = normName(name.trim())
    const p = this.#data.profiles.find((x) => normName(x.name) === n)
    return p && structuredClone(p)
  }

  get activeId(): string | null {
    return this.#data.activeProfileId
  }

  getActive(): Profile | undefined {
    const id = this.#data.activeProfileId
    return id === null ? undefined : this.get(id)
  }

  /** Where keys are kept, and what is wrong with it if anything (for the settings screen). */
  describeStore(): SecretStoreInfo {
    return this.#store.describe()
  }

  /** Re-reads profiles.json (another process may have changed it). */
  async reload(): Promise<void> {
    this.#data = await this.#readFile()
  }

  // ---- mutations --------------------------------------------------------------------------------

  /**
   * Validates the key against the server, then saves the key in the keychain and the profile in
   * profiles.json. Nothing is saved when any step fails. The first profile becomes the active one.
   */
  add(input: NewProfileInput): Promise<Profile> {
    const secrets = [input?.secret, input?.bearerToken].map((s) =>
      typeof s === 'string' ? s.trim() : undefined,
    )
    return this.#serial(async () => {
      try {
        const { kind, name, env, baseUrl, secret, bearer } = checkNewProfile(input, secrets)

        await this.#reloadInside()
        this.#checkUniqueName(name)

        const business = await validateWithServer(this.#clientOptions, kind, env, secret, bearer)

        const now = new Date().toISOString()
        const profile: Profile = {
          id: randomUUID(),
          name,
          environment: env.environment,
          ...(baseUrl === undefined ? {} : { baseUrl }),
          kind,
          createdAt: now,
          validatedAt: now,
          ...(business ? { business } : {}),
        }

        const write = () =>
          this.#writeFile({
            ...this.#data,
            profiles: [...this.#data.profiles, profile],
            activeProfileId: this.#data.activeProfileId ?? profile.id,
          })
        await saveNewSecrets(this.#store, profile.id, secret, bearer, write)
        return structuredClone(profile)
      } catch (err) {
        throw scrub(err, secrets)
      }
    })
  }

  /**
   * Validates a new key for the profile, then replaces its keychain entry. For a business or OAuth
   * profile the new key must belong to the same business. An OAuth profile may pass a new bearer
   * token at the same time (otherwise the saved one is used to validate).
   */
  rotate(id: string, newSecret: string, opts: { bearerToken?: string } = {}): Promise<Profile> {
    const secrets = [newSecret, opts.bearerToken].map((s) => (typeof s === 'string' ? s.trim() : undefined))
    return this.#serial(async () => {
      try {
        await this.#reloadInside()
        const profile = this.#require(id)
        const secret = checkSecret(newSecret, 'secret')
        checkKeyPrefix(profile.kind, secret)
        let newBearer: string | undefined
        if (opts.bearerToken !== undefined) {
          if (profile.kind !== 'oauth') {
            throw new ProfileError('invalid_input', 'Only OAuth profiles take a bearer token.', {
              field: 'bearerToken',
            })
          }
          newBearer = checkSecret(opts.bearerToken, 'bearerToken')
        }
        return await this.#replaceSecrets(profile, { secret, bearer: newBearer }, secrets)
      } catch (err) {
        throw scrub(err, secrets)
      }
    })
  }

  /** OAuth profiles: validates a new bearer token with the saved app key, then replaces the saved token. */
  rotateBearerToken(id: string, bearerToken: string): Promise<Profile> {
    const secrets = [typeof bearerToken === 'string' ? bearerToken.trim() : undefined]
    return this.#serial(async () => {
      try {
        await this.#reloadInside()
        const profile = this.#require(id)
        if (profile.kind !== 'oauth') {
          throw new ProfileError(
            'invalid_input',
            `Profile "${profile.name}" is not an OAuth profile: it has no bearer token.`,
            {
              field: 'bearerToken',
            },
          )
        }
        const bearer = checkSecret(bearerToken, 'bearerToken')
        return await this.#replaceSecrets(profile, { bearer }, secrets)
      } catch (err) {
        throw scrub(err, secrets)
      }
    })
  }

  /** Renames a profile (names stay unique, case-insensitive). */
  rename(id: string, newName: string): Promise<Profile> {
    return this.#serial(async () => {
      await this.#reloadInside()
      const profile = this.#require(id)
      const name = checkName(newName, [])
      this.#checkUniqueName(name, id)
      const updated: Profile = { ...profile, name }
      await this.#writeFile({
        ...this.#data,
        profiles: this.#data.profiles.map((p) => (p.id === id ? updated : p)),
      })
      return structuredClone(updated)
    })
  }

  /** Sets (or, with null, clears) the business's currency the person chose (issue 32; checked by the caller). */
  setCurrency(id: string, currency: string | null): Promise<Profile> {
    return this.#serial(async () => {
      await this.#reloadInside()
      const { currency: _old, ...profile } = this.#require(id)
      const updated: Profile = currency ? { ...profile, currency } : profile
      await this.#writeFile({
        ...this.#data,
        profiles: this.#data.profiles.map((p) => (p.id === id ? updated : p)),
      })
      return structuredClone(updated)
    })
  }

  /**
   * Deletes the profile's keychain entries, then its metadata. When the keychain cannot delete, the
   * profile is kept (so the entry is never orphaned) and the error says why.
   */
  remove(id: string): Promise<void> {
    return this.#serial(async () => {
      await this.#reloadInside()
      const profile = this.#require(id)
      try {
        await this.#store.delete(id)
        if (profile.kind === 'oauth') await this.#store.delete(bearerAccount(id))
      } catch (err) {
        const why = err instanceof Error ? err.message : String(err)
        throw new ProfileError(
          'keychain',
          `Profile "${profile.name}" was not removed: its key could not be deleted from the keychain. ${why}`,
          {
            cause: err,
          },
        )
      }
      await this.#writeFile({
        ...this.#data,
        profiles: this.#data.profiles.filter((p) => p.id !== id),
        activeProfileId: this.#data.activeProfileId === id ? null : this.#data.activeProfileId,
      })
    })
  }

  /** Makes a profile the active one (null: none). */
  setActive(id: string | null): Promise<void> {
    return this.#serial(async () => {
      await this.#reloadInside()
      if (id !== null) this.#require(id)
      if (this.#data.activeProfileId === id) return
      await this.#writeFile({ ...this.#data, activeProfileId: id })
    })
  }

  // ---- clients ----------------------------------------------------------------------------------

  /**
   * An API client for the profile, built with its key read from the keychain. The key stays inside
   * the client (private fields); it is not cached here.
   */
  async clientFor(id: string, options: ProfileClientOptions = {}): Promise<BookkeepingClient> {
    const profile = this.#require(id)
    let secret: string | null = null
    let bearer: string | null = null
    try {
      secret = await this.#store.get(id)
      if (profile.kind === 'oauth') bearer = await this.#store.get(bearerAccount(id))
      if (secret === null || (profile.kind === 'oauth' && bearer === null)) {
        const what = secret === null ? 'key' : 'bearer token'
        throw new ProfileError(
          'secret_missing',
          `The ${what} of profile "${profile.name}" is not in the ${this.#store.describe().label}: enter it again (rotate the key).`,
          { field: secret === null ? 'secret' : 'bearerToken' },
        )
      }
      return new BookkeepingClient({
        ...this.#clientOptions,
        ...options,
        ...envOf(profile),
        auth: authFor(profile.kind, secret, bearer ?? undefined),
      })
    } catch (err) {
      throw scrub(err, [secret, bearer])
    }
  }

  /** Never any secret: the manager holds none. */
  toJSON(): Record<string, unknown> {
    return {
      dataDir: this.dataDir,
      store: this.#store.describe(),
      activeProfileId: this.#data.activeProfileId,
      profiles: this.list(),
    }
  }

  // ---- internals --------------------------------------------------------------------------------

  #serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(fn, fn)
    this.#queue = run.catch(() => undefined)
    return run
  }

  #require(id: string): Profile {
    const p = this.#data.profiles.find((x) => x.id === id)
    if (!p) throw new ProfileError('not_found', 'No such profile: it may have been removed.')
    return p
  }

  #checkUniqueName(name: string, exceptId?: string): void {
    const n = normName(name)
    const clash = this.#data.profiles.find((p) => p.id !== exceptId && normName(p.name) === n)
    if (clash) {
      throw new ProfileError(
        'duplicate_name',
        `A profile named "${clash.name}" already exists (names are compared without regard to case): choose another name.`,
        { field: 'name' },
      )
    }
  }

  async #replaceSecrets(
    profile: Profile,
    next: { secret?: string; bearer?: string },
    secrets: ReadonlyArray<string | undefined>,
  ): Promise<Profile> {
    const oldSecret = await this.#store.get(profile.id)
    const oldBearer = profile.kind === 'oauth' ? await this.#store.get(bearerAccount(profile.id)) : null
    const inScope = [...secrets, oldSecret, oldBearer]
    try {
      const secret = next.secret ?? oldSecret
      const bearer = next.bearer ?? oldBearer ?? undefined
      if (secret === null) {
        throw new ProfileError(
          'secret_missing',
          `The key of profile "${profile.name}" is not in the keychain: rotate the key (not only the token).`,
          { field: 'secret' },
        )
      }
      if (profile.kind === 'oauth' && bearer === undefined) {
        throw new ProfileError(
          'invalid_input',
          'Paste the bearer token too: none is saved for this profile.',
          {
            field: 'bearerToken',
          },
        )
      }
      const business = await validateWithServer(this.#clientOptions, profile.kind, envOf(profile), secret, bearer)
      if (business?.uuid && profile.business?.uuid && business.uuid !== profile.business.uuid) {
        throw new ProfileError(
          'business_mismatch',
          `This key acts for "${business.name ?? 'another business'}" (${business.uuid}), not for "${profile.business.name ?? profile.name}" (${profile.business.uuid}) ` +
            'as this profile does. Nothing was changed; add the key as a new profile instead.',
          { field: next.secret !== undefined ? 'secret' : 'bearerToken' },
        )
      }
      const updated: Profile = {
        ...profile,
        validatedAt: new Date().toISOString(),
        ...(business ? { business: knownBusiness(business, profile.business) } : {}),
      }
      const write = () =>
        this.#writeFile({
          ...this.#data,
          profiles: this.#data.profiles.map((p) => (p.id === profile.id ? updated : p)),
        })
      await replaceSecrets(this.#store, profile.id, next, { secret: oldSecret, bearer: oldBearer }, write)
      return structuredClone(updated)
    } catch (err) {
      throw scrub(err, inScope)
    }
  }

  /** Inside #serial: re-read the file so changes made by another process are kept. */
  async #reloadInside(): Promise<void> {
    this.#data = await this.#readFile()
  }

  #readFile(): Promise<ProfilesFile> {
    return readProfilesFile(this.file)
  }

  async #writeFile(next: ProfilesFile): Promise<void> {
    this.#data = await writeProfilesFile(this.file, next)
  }
}
