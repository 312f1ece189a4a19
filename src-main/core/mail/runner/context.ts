/**
 * What a rule's runner and its parts (sync, take, after-action) share: the timing, what the runner
 * needs of the mail service, the rule at work, and how a failure reads as a MailError.
 */
import type { MailAccountConfig, MailAccountStatus, MailRuleConfig } from '../../../../contract/types'
import type { IntakeRequest, IntakeResult } from '../../intake/intake'
import { isStorageError } from '../../store/storage-errors'
import { coded } from '../../../../contract/coded'
import { MAIL_STATES } from '../../../../contract/main-states'
import { MailError, type MailSession } from '../provider'
import type { MailStore } from '../store'

export interface MailTiming {
  /** First wait after a lost connection, rising to `backoffMaxMs`. */
  backoffMs: number
  backoffMaxMs: number
  /** Wait after a problem a person must fix (wrong password, certificate, mailbox): tried again then. */
  problemRetryMs: number
  /** Longest IDLE before the mailbox is read again anyway. */
  rescanMs: number
  /** Attempts of a `--once` read when the connection is lost. */
  onceAttempts: number
}

export const DEFAULT_MAIL_TIMING: MailTiming = {
  backoffMs: 1000,
  backoffMaxMs: 60_000,
  problemRetryMs: 5 * 60_000,
  rescanMs: 10 * 60_000,
  onceAttempts: 4,
}

/** What a runner needs of the mail service. */
export interface RunnerDeps {
  store: MailStore
  dataDir: string
  timing: MailTiming
  connect(account: MailAccountConfig, signal: AbortSignal): Promise<MailSession>
  take(req: IntakeRequest): Promise<IntakeResult>
  noReceipt(req: IntakeRequest): IntakeResult
  maxFileBytes(): number
  bodyText(type: 'text/plain' | 'text/html', text: string): Promise<string>
  status(ruleId: string, s: Partial<MailAccountStatus>): void
  notice(level: 'info' | 'warning' | 'error', message: string): void
  /** A mail's receipts may all have records now: check and mark it. */
  checkRecorded(mailId: number): void
  /**
   * Runs `fn` after any other run of the same key has finished: two rules reading the same mail (in
   * two mailboxes) take it one after the other, so the second finds the first's receipts.
   */
  serial<T>(key: string, fn: () => Promise<T>): Promise<T>
}

export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve()
    const t = setTimeout(done, ms)
    function done() {
      clearTimeout(t)
      signal.removeEventListener('abort', done)
      resolve()
    }
    signal.addEventListener('abort', done, { once: true })
  })
}

/** Any failure as a MailError: a storage fault or another local error waits and is tried again. */
export function asMailError(e: unknown, label: string): MailError {
  if (e instanceof MailError) return e
  const msg = e instanceof Error ? e.message : String(e)
  if (isStorageError(e))
    return new MailError(
      'protocol',
      coded(MAIL_STATES.storage, { label, detail: msg }),
    )
  return new MailError('protocol', `mail account "${label}": ${msg}`)
}

/** The rule at work, as its parts see it. */
export interface RuleContext {
  readonly account: MailAccountConfig
  readonly rule: MailRuleConfig
  readonly d: RunnerDeps
  /** True once the runner is stopped: work in progress ends at the next mail. */
  readonly stopped: boolean
}

/** A download that broke off: the connection (tried again), or a file that could not be written. */
export function asDownloadError(e: unknown, label: string): MailError | Error {
  const code = (e as { code?: string }).code
  if (
    code &&
    /^(E[A-Z]+|NoConnection|EConnectionClosed|DownloadIncomplete)$/.test(code) &&
    !['ENOSPC', 'EACCES', 'EROFS', 'EDQUOT', 'EIO'].includes(code)
  ) {
    return new MailError(
      'unreachable',
      coded(MAIL_STATES.downloadLost, { label, code }),
    )
  }
  return e instanceof Error ? e : new Error(String(e))
}
