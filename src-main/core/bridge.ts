/**
 * The one way into the app service from outside (IPC in Electron, HTTP in the web host): checks the
 * call name against the contract, validates the payload with the call's schema, runs the call, and
 * answers `{ok: true, value}` or `{ok: false, error}`. This is the ONE place where exceptions become
 * BridgeErrors; nothing thrown ever crosses the bridge raw, and no message carries a secret.
 */
import type { z } from 'zod'
import { $ZodError } from 'zod/v4/core'
import { describeIssues, issuesByField } from '../../schemas'
import {
  type BridgeError,
  CALLS,
  type CallName,
  FILE_CALLS,
  MAX_CALL_BYTES,
  type Res,
  type Result,
} from '../../contract'
import { scrubCoded } from '../../contract/coded'
import { ApiError } from './api'
import { zodCoded } from './form-issues'
import { AppError } from './app-error'
import type { CallHandlers } from './app-service'
import { ProfileError, SecretStoreError, redact } from './secrets'

/** What dispatch needs: a handler per call, and optionally the service's own secret scrubber. */
export type BridgeTarget = CallHandlers & {
  redact?(text: string): string
  /** The data folder: an error never shows its path (an exception of the file system would). */
  readonly dataDir?: string
}

/** How an error names the data folder. */
export const DATA_FOLDER_WORDS = "Bookdrop's data folder"

/** True for the names of the contract's calls (own keys only: never 'constructor' or '__proto__'). */
export function isCallName(name: unknown): name is CallName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(CALLS, name)
}

/**
 * True when a call that carries no file brings more than MAX_CALL_BYTES of payload (IPC has no body
 * limit of its own; the web host's is per route). A payload that is not JSON at all counts as too large.
 */
export function payloadTooLarge(name: string, rawReq: unknown): boolean {
  if ((FILE_CALLS as readonly string[]).includes(name)) return false
  try {
    return Buffer.byteLength(JSON.stringify(rawReq ?? {}) ?? '') > MAX_CALL_BYTES
  } catch {
    return true
  }
}

export const TOO_LARGE: BridgeError = {
  code: 'too_large',
  message: 'This request is larger than Bookdrop accepts (1 MiB for anything but files).',
}

/** Request fields that hold secrets a person typed: never echoed in an error message. */
const SECRET_FIELDS = new Set(['secret', 'bearerToken', 'password'])

function secretsIn(raw: unknown, out: string[] = [], depth = 0): string[] {
  if (depth > 4 || !raw || typeof raw !== 'object') return out
  for (const [k, v] of Object.entries(raw)) {
    if (typeof v === 'string' && SECRET_FIELDS.has(k)) {
      out.push(v, v.trim())
    } else if (v && typeof v === 'object') secretsIn(v, out, depth + 1)
  }
  return out
}

export function zodBridgeError(e: $ZodError): BridgeError {
  // Each field's sentence coded by its kind of problem (form-issues.ts): worded in the person's language.
  return { code: 'invalid_request', message: describeIssues(e), fields: issuesByField(e), ...zodCoded(e) }
}

/** Any exception → BridgeError, with `scrub` applied to every text. */
export function toBridgeError(e: unknown, scrub: (s: string) => string = (s) => s): BridgeError {
  let err: BridgeError
  if (e instanceof ApiError) {
    err = { code: e.errorCode, message: e.message }
    if (e.fields) err.fields = e.fields
    if (e.status > 0) err.status = e.status
    if (e.coded) err.coded = e.coded
  } else if (e instanceof ProfileError) {
    err = { code: e.code, message: e.message }
    if (e.field) err.fields = { [e.field]: e.message }
    if (e.status !== undefined) err.status = e.status
    if (e.coded) err.coded = e.coded
    if (e.coded && e.field) err.codedFields = { [e.field]: e.coded }
  } else if (e instanceof $ZodError) {
    // $ZodError: the errors of zod and of zod/mini (the folder schema) alike.
    err = zodBridgeError(e)
  } else if (e instanceof AppError) {
    err = { code: e.code, message: e.message }
    if (e.fields) err.fields = e.fields
    if (e.status !== undefined) err.status = e.status
    if (e.coded) err.coded = e.coded
    if (e.codedFields) err.codedFields = e.codedFields
  } else if (e instanceof SecretStoreError) {
    err = { code: 'keychain', message: e.message }
  } else {
    const message = e instanceof Error ? e.message : String(e)
    err = { code: 'internal', message: message || 'Something went wrong in Bookdrop.' }
  }
  err.message = scrub(err.message)
  if (err.fields)
    err.fields = Object.fromEntries(Object.entries(err.fields).map(([k, v]) => [k, scrub(String(v))]))
  // The coded sentence goes through the same scrub: its English text and every string parameter.
  if (err.coded) err.coded = scrubCoded({ ...err.coded, text: err.message }, scrub)
  if (err.codedFields)
    err.codedFields = Object.fromEntries(Object.entries(err.codedFields).map(([k, v]) => [k, scrubCoded(v, scrub)]))
  return err
}

/**
 * Runs one call of the contract. `rawReq` is untrusted (it came over IPC or HTTP): it is parsed with
 * the call's schema first, and a missing payload counts as `{}`.
 */
export async function dispatch<K extends CallName>(
  service: BridgeTarget,
  name: K,
  rawReq: unknown,
): Promise<Result<Res<K>>>
export async function dispatch(service: BridgeTarget, name: string, rawReq: unknown): Promise<Result<unknown>>
export async function dispatch(
  service: BridgeTarget,
  name: string,
  rawReq: unknown,
): Promise<Result<unknown>> {
  const typed = secretsIn(rawReq)
  const folder = service.dataDir
  const scrub = (s: string): string => {
    const once = redact(s, typed)
    const clean = service.redact ? service.redact(once) : once
    return folder && folder.length > 1 ? clean.replaceAll(folder, DATA_FOLDER_WORDS) : clean
  }
  if (!isCallName(name)) {
    return {
      ok: false,
      error: {
        code: 'unknown_call',
        message: `Bookdrop has no call named "${scrub(String(name)).slice(0, 80)}".`,
      },
    }
  }
  const schema: z.ZodType = CALLS[name]
  const parsed = schema.safeParse(rawReq ?? {})
  if (!parsed.success) return { ok: false, error: toBridgeError(parsed.error, scrub) }
  try {
    // Each handler takes its own call's parsed request; the name was checked against CALLS just above.
    const handler = service[name] as (req: unknown) => Promise<unknown>
    const value = await handler.call(service, parsed.data)
    return { ok: true, value }
  } catch (e) {
    return { ok: false, error: toBridgeError(e, scrub) }
  }
}
