/**
 * What a profile is made of, and the checks a new or changed profile passes before anything is
 * saved: names, keys (kind by prefix, never a public key), environments and base URLs, the shape of
 * profiles.json, and the errors (ProfileError), scrubbed of every secret in scope.
 */
import { z } from 'zod'
import { ERROR_CODES, KEY_PREFIX, keyKind } from '../../../schemas/assumptions'
import {
  ApiError,
  CLIENT_ERROR_CODES,
  type ClientAuth,
  type ClientOptions,
  type EnvironmentOption,
  resolveBaseUrl,
} from '../api'
import { SecretStoreError, hasControlChar } from './secret-store'
import { redact } from '../util'
import { coded, scrubCoded } from '../../../contract/coded'
import type { Coded } from '../../../contract/message'
import { MAIN_ERRORS } from '../../../contract/main-messages'
import type { BusinessInfo, Profile, ProfileEnvironment, ProfileKind } from '../../../contract/types'

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
export function knownBusiness(next: BusinessInfo, prev: BusinessInfo | undefined): BusinessInfo {
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
  /** The message as a catalogue id with parameters (issue 34), when it has one. */
  readonly coded: Coded | undefined

  constructor(
    code: ProfileErrorCode,
    message: string | Coded,
    opts: { field?: ProfileField; status?: number; cause?: unknown } = {},
  ) {
    super(typeof message === 'string' ? message : message.text, opts.cause === undefined ? undefined : { cause: opts.cause })
    this.coded = typeof message === 'string' ? undefined : message
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

export const businessInfoSchema = z.object({
  uuid: z.string().nullable(),
  name: z.string().nullable(),
  currency: z.string().nullable(),
  country: z.string().nullable(),
})

/** Unknown keys are stripped on read, so nothing but these fields is ever written back. */
export const profileSchema = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  environment: z.enum(PROFILE_ENVIRONMENTS),
  baseUrl: z.string().optional(),
  kind: z.enum(PROFILE_KINDS),
  createdAt: z.string(),
  validatedAt: z.string(),
  business: businessInfoSchema.optional(),
  /** The business's currency as the person set it (issue 32), ISO 4217. */
  currency: z.string().regex(/^[A-Z]{3}$/).optional(),
})

export const profilesFileSchema = z.object({
  version: z.literal(1),
  activeProfileId: z.string().nullable(),
  profiles: z.array(profileSchema),
})
export type ProfilesFile = z.infer<typeof profilesFileSchema>

export const EMPTY_FILE: ProfilesFile = { version: 1, activeProfileId: null, profiles: [] }

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/** Keychain account of an OAuth profile's bearer token. */
export function bearerAccount(profileId: string): string {
  return `${profileId}:bearer`
}

export const HEADER_SAFE = /^[\x21-\x7e]+$/
export const MAX_NAME = 80
export const MAX_SECRET = 4096

/** Every error leaving a method where a secret is in scope goes through here. */
export function scrub(err: unknown, secrets: ReadonlyArray<string | null | undefined>): ProfileError {
  if (err instanceof ProfileError) {
    const message = redact(err.message, secrets)
    if (message === err.message) return err
    const said = err.coded ? scrubCoded(err.coded, (s) => redact(s, secrets)) : message
    return new ProfileError(err.code, said, { field: err.field, status: err.status })
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
    const clean = redact(err.message, secrets)
    return new ProfileError(code, err.coded ? scrubCoded({ ...err.coded, text: clean }, (t) => redact(t, secrets)) : clean, {
      status: err.status || undefined,
      cause: err,
    })
  }
  // Unknown errors: keep only a scrubbed message; the original (and its cause chain) might hold more.
  const text = err instanceof Error ? err.message : String(err)
  return new ProfileError('storage', redact(`Unexpected error: ${text}`, secrets))
}

export function normName(name: string): string {
  return name.normalize('NFC').toLocaleLowerCase('en-US')
}

export function checkName(raw: unknown, secrets: ReadonlyArray<string | undefined>): string {
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

export function checkSecret(raw: unknown, field: 'secret' | 'bearerToken'): string {
  const what = field === 'secret' ? 'key' : 'bearer token'
  const v = typeof raw === 'string' ? raw.trim() : ''
  const token = field === 'secret' ? 'key' : 'token'
  if (v === '') throw new ProfileError('invalid_input', coded(MAIN_ERRORS.keyMissing, { what: token }), { field })
  if (v.length > MAX_SECRET)
    throw new ProfileError('invalid_input', `The ${what} is too long to be real.`, { field })
  if (!HEADER_SAFE.test(v)) {
    throw new ProfileError('invalid_input', coded(MAIN_ERRORS.keyMalformed, { what: token }), { field })
  }
  return v
}

export function checkKind(kind: unknown): ProfileKind {
  if (typeof kind === 'string' && (PROFILE_KINDS as readonly string[]).includes(kind))
    return kind as ProfileKind
  throw new ProfileError('invalid_input', 'Choose the kind of profile: business, partner or OAuth.', {
    field: 'kind',
  })
}

/** The key the profile kind needs, in words. */
export function keyToUse(kind: ProfileKind): string {
  if (kind === 'partner') return `your distributor partner secret key (${KEY_PREFIX.partnerSecret}...)`
  if (kind === 'oauth')
    return `the integration app's secret key (${KEY_PREFIX.businessSecret}...) with a user's bearer token`
  return `the business's secret key (${KEY_PREFIX.businessSecret}...)`
}

/** Refuses public keys and keys whose prefix says they are of the wrong kind. Unknown prefixes go to the server. */
export function checkKeyPrefix(kind: ProfileKind, secret: string): void {
  const claimed = keyKind(secret)
  const refuse = (code: ProfileErrorCode, message: string | Coded): never => {
    throw new ProfileError(code, message, { field: 'secret' })
  }
  if (claimed === 'public') {
    refuse('public_key', {
      ...coded(MAIN_ERRORS.keyIsPublic, { prefix: kind === 'partner' ? KEY_PREFIX.partnerSecret : KEY_PREFIX.businessSecret }),
      text: `This is a public key (${KEY_PREFIX.businessPublic}...), which is not a secret and cannot be used here: use ${keyToUse(kind)}.`,
    })
  }
  if (kind === 'partner' && claimed === 'business') {
    refuse('wrong_key_kind', {
      ...coded(MAIN_ERRORS.keyIsBusiness, { prefix: KEY_PREFIX.partnerSecret }),
      text: `This is a business key (${KEY_PREFIX.businessSecret}...), but this is a partner profile: use ${keyToUse('partner')}, or choose the business profile kind for this key.`,
    })
  }
  if (kind === 'business' && claimed === 'partner') {
    refuse('wrong_key_kind', {
      ...coded(MAIN_ERRORS.keyIsPartner, { kind, prefix: KEY_PREFIX.businessSecret }),
      text: `This is a partner key (${KEY_PREFIX.partnerSecret}...), but this is a business profile: use ${keyToUse('business')}, or choose the partner profile kind for this key.`,
    })
  }
  if (kind === 'oauth' && claimed === 'partner') {
    refuse('wrong_key_kind', {
      ...coded(MAIN_ERRORS.keyIsPartner, { kind, prefix: KEY_PREFIX.businessSecret }),
      text: `This is a partner key (${KEY_PREFIX.partnerSecret}...); an OAuth profile needs ${keyToUse('oauth')}.`,
    })
  }
}

export function checkEnvironment(
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

export function envOf(p: Profile): EnvironmentOption {
  return p.environment === 'custom'
    ? { environment: 'custom', baseUrl: p.baseUrl ?? '' }
    : { environment: p.environment }
}

export function authFor(kind: ProfileKind, secret: string, bearer: string | undefined): ClientAuth {
  if (kind === 'oauth') return { mode: 'oauth', appKey: secret, accessToken: bearer ?? '' }
  return { mode: kind, key: secret }
}

/** Turns what the server (or the client) said about a key into a ProfileError. */
export function validationFailure(err: unknown, kind: ProfileKind, baseUrl: string): ProfileError {
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
    const said =
      kind === 'partner'
        ? coded(MAIN_ERRORS.keyIsBusiness, { prefix: KEY_PREFIX.partnerSecret })
        : coded(MAIN_ERRORS.keyIsPartner, { kind, prefix: KEY_PREFIX.businessSecret })
    return new ProfileError('wrong_key_kind', { ...said, text: `${what}: use ${keyToUse(kind)}${other}. ${saved}` }, {
      ...opts,
      field: 'secret',
    })
  }
  if (err.status === 401 || err.errorCode === ERROR_CODES.invalidKey) {
    const bearer = kind === 'oauth' && /bearer|token/i.test(err.message)
    return new ProfileError(
      'invalid_key',
      { ...coded(MAIN_ERRORS.keyRejected, { what: bearer ? 'token' : 'key', server: err.message }), text: `The server refused the ${bearer ? 'bearer token' : 'key'}: ${err.message} ${saved}` },
      { ...opts, field: bearer ? 'bearerToken' : 'secret' },
    )
  }
  if (err.status === 403) {
    const said = { ...coded(MAIN_ERRORS.serverSaid, { message: err.message }), text: `${err.message} ${saved}` }
    return new ProfileError('access_denied', said, { ...opts, field: 'secret' })
  }
  if (err.status === 0) {
    return new ProfileError(
      'unreachable',
      {
        ...coded(MAIN_ERRORS.keyCheckUnreachable, { address: baseUrl }),
        text: `Could not reach ${baseUrl} to check the key (${err.message}). ${saved} Check the connection and the environment, then try again.`,
      },
      opts,
    )
  }
  return new ProfileError(
    'unreachable',
    {
      ...coded(MAIN_ERRORS.keyCheckFailed, { status: err.status }),
      text: `The server could not check the key right now (${err.status}: ${err.message}). ${saved} Try again in a moment.`,
    },
    opts,
  )
}
