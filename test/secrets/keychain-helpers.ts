/**
 * Shared by the keychain tests: is a real OS keychain reachable, and direct keytar access to check
 * what the code under test did.
 *
 * Rule: keychain tests skip themselves (with the reason in their title) only when no Secret Service is
 * reachable AND CI is not 'true'. In CI they run, and fail when the keychain is missing.
 */
import { randomBytes } from 'node:crypto'
import { createRequire } from 'node:module'
import { type KeytarLike, openSecretStore } from '../../src-main/core/secrets'

/** Unique per test run, so runs never see each other's entries. */
export const RUN_ID = `${process.pid}-${randomBytes(4).toString('hex')}`

const probe = await openSecretStore()
export const keychainProblem: string | null = probe.problem
export const keychainAvailable = probe.problem === null
export const skipKeychain = !keychainAvailable && process.env.CI !== 'true'
if (skipKeychain) {
  console.warn(
    `keychain tests skipped: no OS keychain reachable (${keychainProblem ?? 'unknown'}). ` +
      'Run them with `node scripts/with-keyring.mjs vitest run test/secrets`; with CI=true they run and fail instead.',
  )
}

/** A describe() title that says why the block is skipped. */
export function keychainTitle(title: string): string {
  if (!skipKeychain) return title
  return `${title} [skipped: no OS keychain reachable (${keychainProblem ?? 'unknown'}); run under scripts/with-keyring.mjs, and CI is not 'true']`
}

export interface RawKeytar extends KeytarLike {
  findCredentials(service: string): Promise<Array<{ account: string; password: string }>>
}

/** keytar itself, to check entries independently of the code under test. */
export function rawKeytar(): RawKeytar {
  const require = createRequire(import.meta.url)
  return require('keytar') as RawKeytar
}

/** Deletes every entry of `service` (test-only services) and returns how many there were. */
export async function sweepService(service: string): Promise<number> {
  if (!keychainAvailable) return 0
  const k = rawKeytar()
  const creds = await k.findCredentials(service)
  for (const c of creds) await k.deletePassword(service, c.account)
  return creds.length
}
