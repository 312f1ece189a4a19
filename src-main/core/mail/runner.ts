/**
 * One mail rule at work: one connection to its account, its mailbox selected, reading what is new
 * since the rule's start date (by UID, in batches), taking each receipt through intake, and applying
 * the after-action to mails whose receipts all have records. Watching, it waits for new mail with
 * IMAP IDLE (or polls), and reconnects with backoff; `--once` reads, then (after the jobs) acts.
 *
 * Exactly once (issue 24): a mail is known by its place (account, mailbox, UIDVALIDITY, UID) and by
 * its Message-ID; a receipt's upload row and its link to the mail commit in one transaction, before
 * any request. So a kill at any moment, a restart, a renumbered mailbox (UIDVALIDITY) or the same
 * mail in two mailboxes never takes a receipt twice.
 *
 * This file is the runner's life (connect, wait, reconnect; `--once`); its parts are in runner/:
 * reading the mailbox (sync.ts), taking a mail (take.ts), the after-action (after-action.ts), the
 * rule's filters (rule-match.ts) and what they share (context.ts). A mail's body text is read for
 * sending by ./body-text.ts.
 */
import type { MailAccountConfig, MailRuleConfig } from '../../../contract/types'
import { mailboxPath } from './config'
import type { MailSession } from './provider'
import { act } from './runner/after-action'
import { type RunnerDeps, asMailError, sleep } from './runner/context'
import { type MailboxSeen, sync } from './runner/sync'

export { DEFAULT_MAIL_TIMING, type MailTiming, type RunnerDeps, asMailError } from './runner/context'
export { matchesRule } from './runner/rule-match'

export class RuleRunner {
  private session: MailSession | null = null
  private readonly stopper = new AbortController()
  private waitAbort: AbortController | null = null
  private wakeRequested = false
  private actRequested = false
  private loopDone: Promise<void> | null = null
  /** The mailbox's UIDVALIDITY at the last read, and the one under which open mails were swept. */
  private readonly seen: MailboxSeen = { uidValidity: null, swept: null }

  constructor(
    readonly account: MailAccountConfig,
    readonly rule: MailRuleConfig,
    readonly d: RunnerDeps,
  ) {}

  get stopped(): boolean {
    return this.stopper.signal.aborted
  }

  /** Looks at the mailbox now (after-actions due, "Check now"), instead of at the next wake-up. */
  wake(): void {
    this.wakeRequested = true
    this.waitAbort?.abort()
  }

  /** Mails of this rule became recorded: apply their after-action soon (without reading the mailbox). */
  requestAct(): void {
    this.actRequested = true
    this.waitAbort?.abort()
  }

  // ---- watching ------------------------------------------------------------------------------

  start(): void {
    this.loopDone ??= this.loop()
  }

  async stop(): Promise<void> {
    this.stopper.abort()
    this.waitAbort?.abort()
    await this.closeSession()
    await this.loopDone
  }

  private async closeSession(): Promise<void> {
    const s = this.session
    this.session = null
    if (s) await s.close().catch(() => undefined)
  }

  private async loop(): Promise<void> {
    let failures = 0
    while (!this.stopped) {
      try {
        this.d.status(this.rule.id, { state: 'connecting', message: null, problem: null })
        const s = await this.d.connect(this.account, this.stopper.signal)
        if (this.stopped) {
          await s.close()
          break
        }
        this.session = s
        failures = 0
        const idle = s.canIdle && !this.account.usePolling
        this.d.status(this.rule.id, { state: 'connected', message: null, problem: null, idle })
        let full = true
        while (!this.stopped) {
          if (full) {
            this.wakeRequested = false
            this.actRequested = false
            await sync(this, s, this.seen)
            this.d.status(this.rule.id, {
              state: 'connected',
              lastCheckAt: Date.now(),
              message: null,
              problem: null,
              idle,
            })
          } else if (this.seen.uidValidity) {
            // Mails whose receipts all have records now: their after-action, no reading.
            this.actRequested = false
            await act(this, s, this.seen.uidValidity)
          }
          if (this.wakeRequested || this.actRequested) {
            full = this.wakeRequested
            continue
          }
          this.waitAbort = new AbortController()
          const both = AbortSignal.any([this.stopper.signal, this.waitAbort.signal])
          await s.wait(idle ? this.d.timing.rescanMs : this.account.pollSeconds * 1000, both)
          // New mail, the rescan's time or "Check now" read the mailbox; records only act.
          full = this.wakeRequested || !this.actRequested
          this.waitAbort = null
        }
      } catch (e) {
        await this.closeSession()
        if (this.stopped) break
        const me = asMailError(e, this.account.label)
        failures++
        const wait = me.transient
          ? Math.min(this.d.timing.backoffMaxMs, this.d.timing.backoffMs * 2 ** Math.min(failures - 1, 10)) *
            (0.5 + Math.random() / 2)
          : this.d.timing.problemRetryMs
        this.d.status(this.rule.id, {
          state: me.transient ? 'waiting' : 'error',
          message: me.message,
          ...(me.coded ? { messageCoded: me.coded } : {}),
          problem: me.problem,
        })
        // "Check now" (wake) tries again at once: a person may just have fixed the cause.
        this.waitAbort = new AbortController()
        if (!this.wakeRequested)
          await sleep(wait, AbortSignal.any([this.stopper.signal, this.waitAbort.signal]))
        this.waitAbort = null
        this.wakeRequested = false
      }
    }
    await this.closeSession()
  }

  // ---- once ----------------------------------------------------------------------------------

  /**
   * `--once`: reads the mailbox (taking every receipt), trying again a few times when the
   * connection is lost; a problem a person must fix throws at once.
   */
  async readOnce(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        this.d.status(this.rule.id, { state: 'connecting', message: null, problem: null })
        const s = await this.d.connect(this.account, this.stopper.signal)
        this.session = s
        this.d.status(this.rule.id, { state: 'connected', message: null, problem: null, idle: false })
        await sync(this, s, this.seen)
        this.d.status(this.rule.id, { state: 'connected', lastCheckAt: Date.now() })
        await this.closeSession()
        return
      } catch (e) {
        await this.closeSession()
        const me = asMailError(e, this.account.label)
        this.d.status(this.rule.id, {
          state: me.transient ? 'waiting' : 'error',
          message: me.message,
          ...(me.coded ? { messageCoded: me.coded } : {}),
          problem: me.problem,
        })
        if (!me.transient || attempt >= this.d.timing.onceAttempts || this.stopped) throw me
        await sleep(this.d.timing.backoffMs * 2 ** (attempt - 1), this.stopper.signal)
      }
    }
  }

  /** `--once`, after the jobs: applies the after-action to mails whose receipts all have records. */
  async actOnce(): Promise<void> {
    if (!this.seen.uidValidity) return
    for (const m of this.d.store.mailsIn(this.rule.id, this.seen.uidValidity, 'open')) this.d.checkRecorded(m.id)
    if (this.d.store.mailsIn(this.rule.id, this.seen.uidValidity, 'recorded').length === 0) return
    for (let attempt = 1; ; attempt++) {
      try {
        const s = await this.d.connect(this.account, this.stopper.signal)
        this.session = s
        const box = await s.open(mailboxPath(this.rule.mailbox))
        if (box.uidValidity === this.seen.uidValidity) await act(this, s, box.uidValidity)
        await this.closeSession()
        return
      } catch (e) {
        await this.closeSession()
        const me = asMailError(e, this.account.label)
        if (!me.transient || attempt >= this.d.timing.onceAttempts || this.stopped) throw me
        await sleep(this.d.timing.backoffMs * 2 ** (attempt - 1), this.stopper.signal)
      }
    }
  }
}
