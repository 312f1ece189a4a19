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
 */
import { randomUUID } from 'node:crypto'
import { mkdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'
import { ERROR_CODES, KEY_PREFIX, keyKind } from '../../../schemas/assumptions'
import {
  ApiError,
  BookkeepingClient,
  CLIENT_ERROR_CODES,
  type ClientAuth,
  type ClientOptions,
  type EnvironmentOption,
  resolveBaseUrl,
} from '../api'
import { writeFileAtomic } from './atomic-file'
import { type SecretStore, type SecretStoreInfo, SecretStoreError, hasControlChar } from './secret-store'
import { errnoCode, redact } from '../util'
import type { BusinessInfo, Profile, ProfileEnvironment, ProfileKind } from '../../../contract/types'

export type { BusinessInfo, Profile, ProfileEnvironment, ProfileKind }

export { redact }

// ---------------------------------------------------------------------------------------------
// Types
// ---------------------------------------------------------------------------------------------

export const PROFILE_KINDS = ['business', 'partner', 'oauth'] as const satisfies readonly ProfileKind[]
export const PROFILE_ENVIRONMENTS = [
  'production',
  'sandbox',
  'custom',
] as const satisfies readonly ProfileEnvironment[]

/** A new answer about the business, keeping what an earlier answer knew where this one is silent. */
function knownBusiness(next: BusinessInfo, prev: BusinessInfo | undefined): BusinessInfo {
  return {
    uuid: next.uuid ?? prev?.uuid ?? null,
    name: next.name ?? prev?.name ?? null,
    currency: next.currency ?? prev?.currency ?? null,
    country: next.country ?? prev?.country ?? null,
  }
}

export interface NewProfileInput {
  name: string
  environment: ProfileEnvironment
  /** Required for (and only allowed with) the custom environment. */
  baseUrl?: string
  kind: ProfileKind
  /** business: svc_sk_...; partner: svc_partner_sk_...; oauth: the integration app's svc_sk_... key. */
  secret: string
  /** OAuth only: the user's bearer token. */
  bearerToken?: string
}

/** Client options a caller may add to those a profile sets (environment, base URL and auth). */
export type ProfileClientOptions = Omit<ClientOptions, 'environment' | 'baseUrl' | 'auth'>

export type ProfileErrorCode =
  /** A field of the input is missing or unusable (see `field`). */
  | 'invalid_input'
  | 'duplicate_name'
  | 'not_found'
  /** A public key (svc_pk_): never a secret, never accepted. */
  | 'public_key'
  /** A key of the wrong kind for the profile (by prefix, or by the server's answer). */
  | 'wrong_key_kind'
  /** The server refused the key or token (401). */
  | 'invalid_key'
  /** The server accepted the key but refuses this business the API (403), or another refusal. */
  | 'access_denied'
  /** On rotation: the new key belongs to another business. */
  | 'business_mismatch'
  /** The server could not be reached, or could not answer right now; nothing was saved. */
  | 'unreachable'
  /** The keychain (SecretStore) failed or is read-only. */
  | 'keychain'
  /** The profile's secret is not in the keychain any more. */
  | 'secret_missing'
  /** profiles.json could not be read or written. */
  | 'storage'

export type ProfileField = 'name' | 'environment' | 'baseUrl' | 'kind' | 'secret' | 'bearerToken'

/** The one error the profile manager throws. Its message never contains a secret. */
export class ProfileError extends Error {
  override readonly name = 'ProfileError'
  readonly code: ProfileErrorCode
  /** The input field the error is about, for forms. */
  readonly field: ProfileField | undefined
  /** HTTP status when the server answered. */
  readonly status: number | undefined

  constructor(
    code: ProfileErrorCode,
    message: string,
    opts: { field?: ProfileField; status?: number; cause?: unknown } = {},
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause })
    this.code = code
    this.field = opts.field
    this.status = opts.status
  }

  /** `{code, message}` (plus field/status) for crossing the bridge as `{ ok: false, error }`. */
  toJSON(): { name: string; code: ProfileErrorCode; message: string; field?: ProfileField; status?: number } {
    return { name: this.name, code: this.code, message: this.message, field: this.field, status: this.status }
  }
}

// ---------------------------------------------------------------------------------------------
// profiles.json
// ---------------------------------------------------------------------------------------------

export const PROFILES_FILE = 'profiles.json'

const businessInfoSchema = z.object({
  uuid: z.string().nullable(),
  name: z.string().nullable(),
  currency: z.string().nullable(),
  country: z.string().nullable(),
})

/** Unknown keys are stripped on read, so nothing but these fields is ever written back. */
const profileSchema = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  environment: z.enum(PROFILE_ENVIRONMENTS),
  baseUrl: z.string().optional(),
  kind: z.enum(PROFILE_KINDS),
  createdAt: z.string(),
  validatedAt: z.string(),
  business: businessInfoSchema.optional(),
})

const profilesFileSchema = z.object({
  version: z.literal(1),
  activeProfileId: z.string().nullable(),
  profiles: z.array(profileSchema),
})
type ProfilesFile = z.infer<typeof profilesFileSchema>

const EMPTY_FILE: ProfilesFile = { version: 1, activeProfileId: null, profiles: [] }

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/** Keychain account of an OAuth profile's bearer token. */
export function bearerAccount(profileId: string): string {
  return `${profileId}:bearer`
}

const HEADER_SAFE = /^[\x21-\x7e]+$/
const MAX_NAME = 80
const MAX_SECRET = 4096

/** Every error leaving a method where a secret is in scope goes through here. */
function scrub(err: unknown, secrets: ReadonlyArray<string | null | undefined>): ProfileError {
  if (err instanceof ProfileError) {
    const message = redact(err.message, secrets)
    if (message === err.message) return err
    return new ProfileError(err.code, message, { field: err.field, status: err.status })
  }
  if (err instanceof SecretStoreError) {
    return new ProfileError('keychain', redact(err.message, secrets), { cause: err })
  }
  if (err instanceof ApiError) {
    // The client redacts its own messages; redact again for anything it did not know was secret.
    const code =
      err.errorCode === ERROR_CODES.wrongKeyKind
        ? 'wrong_key_kind'
        : err.status === 0
          ? 'invalid_key'
          : 'unreachable'
    return new ProfileError(code, redact(err.message, secrets), {
      status: err.status || undefined,
      cause: err,
    })
  }
  // Unknown errors: keep only a scrubbed message; the original (and its cause chain) might hold more.
  const text = err instanceof Error ? err.message : String(err)
  return new ProfileError('storage', redact(`Unexpected error: ${text}`, secrets))
}

function normName(name: string): string {
  return name.normalize('NFC').toLocaleLowerCase('en-US')
}

function checkName(raw: unknown, secrets: ReadonlyArray<string | undefined>): string {
  const name = typeof raw === 'string' ? raw.trim().normalize('NFC') : ''
  if (name === '')
    throw new ProfileError('invalid_input', 'Give the profile a name, such as "Acme Ltd".', { field: 'name' })
  if (name.length > MAX_NAME) {
    throw new ProfileError('invalid_input', `A profile name can be at most ${MAX_NAME} characters long.`, {
      field: 'name',
    })
  }
  if (hasControlChar(name)) {
    throw new ProfileError(
      'invalid_input',
      'A profile name cannot contain line breaks or control characters.',
      {
        field: 'name',
      },
    )
  }
  // The name is written to profiles.json in clear: never let a pasted key end up there.
  if (/^svc_/i.test(name) || secrets.some((s) => s && s.length >= 4 && name.includes(s))) {
    throw new ProfileError(
      'invalid_input',
      'The profile name looks like an API key; names are stored in clear. Paste the key in the key field, and name the profile after the business.',
      { field: 'name' },
    )
  }
  return name
}

function checkSecret(raw: unknown, field: 'secret' | 'bearerToken'): string {
  const what = field === 'secret' ? 'key' : 'bearer token'
  const v = typeof raw === 'string' ? raw.trim() : ''
  if (v === '') throw new ProfileError('invalid_input', `Paste the ${what}.`, { field })
  if (v.length > MAX_SECRET)
    throw new ProfileError('invalid_input', `The ${what} is too long to be real.`, { field })
  if (!HEADER_SAFE.test(v)) {
    throw new ProfileError(
      'invalid_input',
      `The ${what} contains spaces, line breaks or other characters keys never have: paste it again as one word.`,
      { field },
    )
  }
  return v
}

function checkKind(kind: unknown): ProfileKind {
  if (typeof kind === 'string' && (PROFILE_KINDS as readonly string[]).includes(kind))
    return kind as ProfileKind
  throw new ProfileError('invalid_input', 'Choose the kind of profile: business, partner or OAuth.', {
    field: 'kind',
  })
}

/** The key the profile kind needs, in words. */
function keyToUse(kind: ProfileKind): string {
  if (kind === 'partner') return `your distributor partner secret key (${KEY_PREFIX.partnerSecret}...)`
  if (kind === 'oauth')
    return `the integration app's secret key (${KEY_PREFIX.businessSecret}...) with a user's bearer token`
  return `the business's secret key (${KEY_PREFIX.businessSecret}...)`
}

/** Refuses public keys and keys whose prefix says they are of the wrong kind. Unknown prefixes go to the server. */
function checkKeyPrefix(kind: ProfileKind, secret: string): void {
  const claimed = keyKind(secret)
  if (claimed === 'public') {
    throw new ProfileError(
      'public_key',
      `This is a public key (${KEY_PREFIX.businessPublic}...), which is not a secret and cannot be used here: use ${keyToUse(kind)}.`,
      { field: 'secret' },
    )
  }
  if (kind === 'partner' && claimed === 'business') {
    throw new ProfileError(
      'wrong_key_kind',
      `This is a business key (${KEY_PREFIX.businessSecret}...), but this is a partner profile: use ${keyToUse('partner')}, ` +
        'or choose the business profile kind for this key.',
      { field: 'secret' },
    )
  }
  if (kind === 'business' && claimed === 'partner') {
    throw new ProfileError(
      'wrong_key_kind',
      `This is a partner key (${KEY_PREFIX.partnerSecret}...), but this is a business profile: use ${keyToUse('business')}, ` +
        'or choose the partner profile kind for this key.',
      { field: 'secret' },
    )
  }
  if (kind === 'oauth' && claimed === 'partner') {
    throw new ProfileError(
      'wrong_key_kind',
      `This is a partner key (${KEY_PREFIX.partnerSecret}...); an OAuth profile needs ${keyToUse('oauth')}.`,
      { field: 'secret' },
    )
  }
}

function checkEnvironment(
  environment: unknown,
  baseUrl: unknown,
): { env: EnvironmentOption; baseUrl?: string } {
  if (environment === 'production' || environment === 'sandbox') {
    if (baseUrl !== undefined && baseUrl !== null && baseUrl !== '') {
      throw new ProfileError(
        'invalid_input',
        `The ${environment} environment has a fixed address; to use your own base URL choose the custom environment.`,
        { field: 'baseUrl' },
      )
    }
    return { env: { environment } }
  }
  if (environment === 'custom') {
    try {
      const resolved = resolveBaseUrl({
        environment: 'custom',
        baseUrl: typeof baseUrl === 'string' ? baseUrl : '',
      })
      return { env: { environment: 'custom', baseUrl: resolved }, baseUrl: resolved }
    } catch (err) {
      throw new ProfileError('invalid_input', err instanceof Error ? err.message : String(err), {
        field: 'baseUrl',
      })
    }
  }
  throw new ProfileError('invalid_input', 'Choose the environment: production, sandbox or custom.', {
    field: 'environment',
  })
}

function envOf(p: Profile): EnvironmentOption {
  return p.environment === 'custom'
    ? { environment: 'custom', baseUrl: p.baseUrl ?? '' }
    : { environment: p.environment }
}

function authFor(kind: ProfileKind, secret: string, bearer: string | undefined): ClientAuth {
  if (kind === 'oauth') return { mode: 'oauth', appKey: secret, accessToken: bearer ?? '' }
  return { mode: kind, key: secret }
}

/** Turns what the server (or the client) said about a key into a ProfileError. */
function validationFailure(err: unknown, kind: ProfileKind, baseUrl: string): ProfileError {
  if (!(err instanceof ApiError)) {
    return err instanceof ProfileError
      ? err
      : new ProfileError('unreachable', `The key could not be checked: ${String(err)}`)
  }
  const saved = 'Nothing was saved.'
  const opts = { status: err.status || undefined, cause: err }
  if (err.errorCode === CLIENT_ERROR_CODES.invalidBaseUrl) {
    return new ProfileError('invalid_input', err.message, { ...opts, field: 'baseUrl' })
  }
  if (err.errorCode === ERROR_CODES.wrongKeyKind) {
    const what =
      kind === 'partner'
        ? 'The server says this is a business key, not a partner key'
        : kind === 'business'
          ? 'The server says this is a partner key, not a business key'
          : 'The server says this key cannot act for a business'
    const other =
      kind === 'partner'
        ? ', or choose the business profile kind for this key'
        : kind === 'business'
          ? ', or choose the partner profile kind for this key'
          : ''
    return new ProfileError('wrong_key_kind', `${what}: use ${keyToUse(kind)}${other}. ${saved}`, {
      ...opts,
      field: 'secret',
    })
  }
  if (err.status === 401 || err.errorCode === ERROR_CODES.invalidKey) {
    const bearer = kind === 'oauth' && /bearer|token/i.test(err.message)
    return new ProfileError(
      'invalid_key',
      `The server refused the ${bearer ? 'bearer token' : 'key'}: ${err.message} ${saved}`,
      { ...opts, field: bearer ? 'bearerToken' : 'secret' },
    )
  }
  if (err.status === 403) {
    return new ProfileError('access_denied', `${err.message} ${saved}`, { ...opts, field: 'secret' })
  }
  if (err.status === 0) {
    return new ProfileError(
      'unreachable',
      `Could not reach ${baseUrl} to check the key (${err.message}). ${saved} Check the connection and the environment, then try again.`,
      opts,
    )
  }
  return new ProfileError(
    'unreachable',
    `The server could not check the key right now (${err.status}: ${err.message}). ${saved} Try again in a moment.`,
    opts,
  )
}

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
        const kind = checkKind(input.kind)
        const name = checkName(input.name, secrets)
        const { env, baseUrl } = checkEnvironment(input.environment, input.baseUrl)
        const secret = checkSecret(input.secret, 'secret')
        checkKeyPrefix(kind, secret)
        let bearer: string | undefined
        if (kind === 'oauth') {
          bearer = checkSecret(input.bearerToken, 'bearerToken')
          if (keyKind(bearer) !== 'unknown') {
            throw new ProfileError(
              'invalid_input',
              'The bearer token looks like an API key: paste the token the user authorised the app with.',
              { field: 'bearerToken' },
            )
          }
        } else if (input.bearerToken !== undefined && input.bearerToken !== '') {
          throw new ProfileError('invalid_input', 'Only OAuth profiles take a bearer token.', {
            field: 'bearerToken',
          })
        }

        await this.#reloadInside()
        this.#checkUniqueName(name)

        const business = await this.#validate(kind, env, secret, bearer)

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

        // Keychain first, then the file; undo the keychain if the file cannot be written.
        await this.#store.set(profile.id, secret)
        try {
          if (bearer !== undefined) await this.#store.set(bearerAccount(profile.id), bearer)
          const next: ProfilesFile = {
            ...this.#data,
            profiles: [...this.#data.profiles, profile],
            activeProfileId: this.#data.activeProfileId ?? profile.id,
          }
          await this.#writeFile(next)
        } catch (err) {
          await this.#store.delete(profile.id).catch(() => undefined)
          if (bearer !== undefined) await this.#store.delete(bearerAccount(profile.id)).catch(() => undefined)
          throw err
        }
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

  /** Asks the server whether the key (and token) works for the profile kind; returns the business for business/OAuth keys. */
  async #validate(
    kind: ProfileKind,
    env: EnvironmentOption,
    secret: string,
    bearer: string | undefined,
  ): Promise<BusinessInfo | undefined> {
    let baseUrl = env.environment === 'custom' ? env.baseUrl : env.environment
    try {
      const client = new BookkeepingClient({
        ...this.#clientOptions,
        ...env,
        auth: authFor(kind, secret, bearer),
      })
      baseUrl = client.baseUrl
      if (kind === 'partner') {
        await client.listReferredBusinesses({ limit: 1 })
        return undefined
      }
      const data = await client.validateKey()
      return { uuid: data.business_uuid, name: data.name, currency: data.currency, country: data.country }
    } catch (err) {
      throw validationFailure(err, kind, baseUrl)
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
      const business = await this.#validate(profile.kind, envOf(profile), secret, bearer)
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
      const restore = async () => {
        if (next.secret !== undefined) {
          await (
            oldSecret === null ? this.#store.delete(profile.id) : this.#store.set(profile.id, oldSecret)
          ).catch(() => undefined)
        }
        if (next.bearer !== undefined) {
          const acct = bearerAccount(profile.id)
          await (oldBearer === null ? this.#store.delete(acct) : this.#store.set(acct, oldBearer)).catch(
            () => undefined,
          )
        }
      }
      try {
        if (next.secret !== undefined) await this.#store.set(profile.id, next.secret)
        if (next.bearer !== undefined) await this.#store.set(bearerAccount(profile.id), next.bearer)
        await this.#writeFile({
          ...this.#data,
          profiles: this.#data.profiles.map((p) => (p.id === profile.id ? updated : p)),
        })
      } catch (err) {
        await restore()
        throw err
      }
      return structuredClone(updated)
    } catch (err) {
      throw scrub(err, inScope)
    }
  }

  /** Inside #serial: re-read the file so changes made by another process are kept. */
  async #reloadInside(): Promise<void> {
    this.#data = await this.#readFile()
  }

  async #readFile(): Promise<ProfilesFile> {
    let text: string
    try {
      text = await readFile(this.file, 'utf8')
    } catch (err) {
      if (errnoCode(err) === 'ENOENT') return structuredClone(EMPTY_FILE)
      throw new ProfileError('storage', `Cannot read ${this.file}: ${(err as Error).message}`)
    }
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {
      throw new ProfileError(
        'storage',
        `${this.file} is damaged (not JSON). Keys in the keychain are untouched; restore the file or remove it to start a new profile list.`,
      )
    }
    const parsed = profilesFileSchema.safeParse(json)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      const where = issue ? `${issue.path.join('.') || 'file'}: ${issue.message}` : 'unexpected content'
      throw new ProfileError(
        'storage',
        `${this.file} is damaged (${where}). Keys in the keychain are untouched; restore the file or remove it to start a new profile list.`,
      )
    }
    const data = parsed.data
    if (data.activeProfileId !== null && !data.profiles.some((p) => p.id === data.activeProfileId)) {
      data.activeProfileId = null
    }
    return data
  }

  async #writeFile(next: ProfilesFile): Promise<void> {
    // Parse on the way out too: only the schema's fields (never a secret) reach the disk.
    const clean = profilesFileSchema.parse(next)
    try {
      await writeFileAtomic(this.file, JSON.stringify(clean, null, 2) + '\n')
    } catch (err) {
      throw new ProfileError('storage', `Cannot save ${this.file}: ${(err as Error).message}`)
    }
    this.#data = clean
  }
}
