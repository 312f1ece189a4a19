/**
 * Mail intake (issue 24), as the engine holds it: the accounts and rules (stored next to the queue,
 * passwords in the OS keychain), one runner per enabled rule (./runner.ts), each account's state for
 * the Mail screen and the headless lines, and the glue with the upload queue: a mail's receipts are
 * upload rows of source `mail`, and once they all have records the mail gets its after-action.
 *
 * The IMAP client loads only when an IMAP account runs (./imap.ts); the demo's inbox needs no
 * network (./demo-inbox.ts). Nothing here logs or stores a password.
 */
import type {
  MailAccountConfig,
  MailAccountStatus,
  MailAccountView,
  MailRuleConfig,
} from '../../../contract/types'
import type { EngineEmitter } from '../events'
import type { IntakeRequest, IntakeResult } from '../intake/intake'
import type { Db } from '../store/db'
import type { Upload } from '../store/uploads'
import type { TaskPool } from '../../../workers/pool'
import { type MailAccountInput, type MailRuleInput, normalizeAccount, normalizeRule } from './config'
import type { DemoInbox } from './demo-inbox'
import { coded } from '../../../contract/coded'
import { MAIL_STATES } from '../../../contract/main-states'
import { MailError, type MailServer, type MailSession } from './provider'
import { readBodyText } from './body-text'
import { DEFAULT_MAIL_TIMING, type MailTiming, RuleRunner, asMailError } from './runner'
import { MailStore } from './store'
import type { MailTextTasks } from './text'

/** Where a mail account's password comes from (the OS keychain, BOOKDROP_MAIL_PASSWORD). */
export type MailPasswords = (account: MailAccountConfig) => Promise<string | null>

export interface MailServiceDeps {
  db: Db
  dataDir: string
  events: EngineEmitter
  take(req: IntakeRequest): Promise<IntakeResult>
  noReceipt(req: IntakeRequest): IntakeResult
  maxFileBytes(): number
}

export interface MailOptions {
  passwords?: MailPasswords
  /** The IMAP implementation (imapflow by default, loaded on first use). */
  imap?: () => Promise<MailServer>
  timing?: Partial<MailTiming>
}

export type { MailAccountView }

const INITIAL: MailAccountStatus = {
  state: 'starting',
  message: null,
  problem: null,
  lastCheckAt: null,
  idle: false,
}
const RANK: Record<MailAccountStatus['state'], number> = {
  error: 6,
  waiting: 5,
  connecting: 4,
  starting: 3,
  connected: 2,
  disabled: 1,
}

export class MailService {
  readonly store: MailStore
  private readonly runners = new Map<string, RuleRunner>()
  private readonly ruleStatus = new Map<string, MailAccountStatus>()
  private readonly accountStatus = new Map<string, MailAccountStatus>()
  /** The demo's account and rules: in memory only. */
  private readonly ephemeral = new Map<string, { account: MailAccountConfig; rules: MailRuleConfig[] }>()
  private demoInbox: DemoInbox | null = null
  private passwords: MailPasswords
  private readonly timing: MailTiming
  private textPool: TaskPool<MailTextTasks> | null = null
  private imap: Promise<MailServer> | null = null
  /** Rules to run while watching (null: every enabled rule); headless runs only its own. */
  private watching: Set<string> | null | false = false
  private closed = false
  /** Whether any mail exists here: until then, upload events are not looked at. */
  private hasMail: boolean

  constructor(
    private readonly d: MailServiceDeps,
    private readonly opts: MailOptions = {},
  ) {
    this.store = new MailStore(d.db)
    this.passwords = opts.passwords ?? (async () => null)
    this.timing = { ...DEFAULT_MAIL_TIMING, ...opts.timing }
    this.hasMail =
      this.store.accounts().length > 0 || d.db.get('SELECT 1 AS x FROM mail_parts LIMIT 1') !== undefined
    d.events.on('upload', ({ upload }) => {
      // A possible duplicate a person discarded is decided too (issue 33): its mail may be done.
      if (this.hasMail && (upload.status === 'completed' || upload.status === 'discarded')) this.recordedUpload(upload.id)
    })
  }

  setPasswords(fn: MailPasswords): void {
    this.passwords = fn
  }

  // ---- accounts and rules --------------------------------------------------------------------

  private allAccounts(): MailAccountConfig[] {
    return [...this.store.accounts(), ...[...this.ephemeral.values()].map((e) => e.account)]
  }

  account(id: string): MailAccountConfig | undefined {
    return this.ephemeral.get(id)?.account ?? this.store.account(id)
  }

  rulesOf(accountId: string): MailRuleConfig[] {
    return this.ephemeral.get(accountId)?.rules ?? this.store.rules(accountId)
  }

  private rule(id: string): MailRuleConfig | undefined {
    for (const e of this.ephemeral.values()) {
      const r = e.rules.find((x) => x.id === id)
      if (r) return r
    }
    return this.store.rule(id)
  }

  list(profileId?: string): MailAccountView[] {
    return this.allAccounts()
      .filter((a) => !profileId || a.profileId === profileId)
      .map((a) => ({
        ...a,
        status: this.status(a.id),
        rules: this.rulesOf(a.id),
        demo: this.ephemeral.has(a.id),
      }))
  }

  status(accountId: string): MailAccountStatus {
    const a = this.account(accountId)
    if (a && !a.enabled) return { ...INITIAL, state: 'disabled' }
    return this.accountStatus.get(accountId) ?? INITIAL
  }

  /** Saves an account (new, or changes to `id`); its runners start again with it. */
  async saveAccount(input: MailAccountInput, id?: string): Promise<MailAccountConfig> {
    const cur = id ? this.store.account(id) : undefined
    if (id && !cur) throw new Error('That mail account is no longer there.')
    const a = normalizeAccount(input, id, cur?.addedAt)
    const clash = this.store
      .accounts()
      .find(
        (o) =>
          o.id !== a.id &&
          o.profileId === a.profileId &&
          o.host === a.host &&
          o.port === a.port &&
          o.user === a.user,
      )
    if (clash) throw new Error(`${a.user} on ${a.host} is already an account ("${clash.label}").`)
    this.store.saveAccount(a)
    this.hasMail = true
    await this.restartAccount(a.id)
    return a
  }

  async removeAccount(id: string): Promise<void> {
    await this.stopAccount(id)
    this.store.removeAccount(id)
    this.accountStatus.delete(id)
  }

  async saveRule(input: MailRuleInput, id?: string): Promise<MailRuleConfig> {
    const cur = id ? this.store.rule(id) : undefined
    if (id && !cur) throw new Error('That mail rule is no longer there.')
    if (!this.store.account(input.accountId)) throw new Error('That mail account is no longer there.')
    const r = normalizeRule(input, id, cur?.addedAt)
    const clash = this.store
      .rules(r.accountId)
      .find(
        (o) =>
          o.id !== r.id &&
          o.mailbox.toUpperCase() === r.mailbox.toUpperCase() &&
          o.target === r.target &&
          o.fromContains === r.fromContains &&
          o.subjectContains === r.subjectContains,
      )
    if (clash) throw new Error(`${r.mailbox} already has a rule for ${r.target} with these filters.`)
    this.store.saveRule(r)
    await this.restartAccount(r.accountId)
    return r
  }

  async removeRule(id: string): Promise<void> {
    const r = this.store.rule(id)
    if (!r) return
    await this.runners.get(id)?.stop()
    this.runners.delete(id)
    this.ruleStatus.delete(id)
    this.store.removeRule(id)
    this.aggregate(r.accountId)
  }

  /** The demo's inbox and its account (in memory): read like any account, no network. */
  async addDemo(inbox: DemoInbox, account: MailAccountConfig, rules: MailRuleConfig[]): Promise<void> {
    this.demoInbox = inbox
    this.ephemeral.set(account.id, { account, rules })
    this.hasMail = true
    // A demo inbox is new each run (a new UIDVALIDITY): nothing read of an earlier one applies.
    for (const r of rules) this.store.removeRule(r.id)
    await this.restartAccount(account.id)
  }

  async removeDemo(accountId: string): Promise<void> {
    await this.stopAccount(accountId)
    this.ephemeral.delete(accountId)
    this.accountStatus.delete(accountId)
    this.demoInbox = null
  }

  get demo(): DemoInbox | null {
    return this.demoInbox
  }

  // ---- running -------------------------------------------------------------------------------

  private async connect(account: MailAccountConfig, signal: AbortSignal): Promise<MailSession> {
    if (account.kind === 'demo') {
      if (!this.demoInbox)
        throw new MailError('unreachable', coded(MAIL_STATES.demoNotRunning, { label: account.label }))
      return this.demoInbox.connect(account)
    }
    const password = await this.passwords(account)
    this.imap ??= (this.opts.imap ?? (() => import('./imap').then((m) => m.imapServer)))()
    const server = await this.imap
    return server.connect(account, password, signal)
  }

  private runnerFor(account: MailAccountConfig, rule: MailRuleConfig): RuleRunner {
    return new RuleRunner(account, rule, {
      store: this.store,
      dataDir: this.d.dataDir,
      timing: this.timing,
      connect: (a, signal) => this.connect(a, signal),
      take: (req) => this.d.take(req),
      noReceipt: (req) => this.d.noReceipt(req),
      maxFileBytes: () => this.d.maxFileBytes(),
      bodyText: (type, text) => this.bodyText(type, text),
      status: (ruleId, s) => this.setRuleStatus(account.id, ruleId, s),
      notice: (level, message) => this.d.events.emit('notice', { level, message }),
      checkRecorded: (id) => this.checkRecorded(id),
      serial: (key, fn) => this.serial(key, fn),
    })
  }

  private readonly chains = new Map<string, Promise<unknown>>()

  private serial<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.chains.get(key) ?? Promise.resolve()
    const next = prev.then(fn, fn)
    const tail = next.catch(() => undefined)
    this.chains.set(key, tail)
    void tail.then(() => {
      if (this.chains.get(key) === tail) this.chains.delete(key)
    })
    return next
  }

  /** Starts watching every enabled rule of every enabled account (or only the rules given). */
  start(only?: readonly string[]): void {
    if (this.closed) return
    this.watching = only ? new Set(only) : null
    for (const a of this.allAccounts()) this.startAccount(a)
  }

  private wanted(rule: MailRuleConfig): boolean {
    return this.watching !== false && (this.watching === null || this.watching.has(rule.id))
  }

  private startAccount(a: MailAccountConfig): void {
    if (!a.enabled || this.closed) {
      this.aggregate(a.id)
      return
    }
    for (const r of this.rulesOf(a.id)) {
      if (!r.enabled || !this.wanted(r) || this.runners.has(r.id)) continue
      const runner = this.runnerFor(a, r)
      this.runners.set(r.id, runner)
      runner.start()
    }
    this.aggregate(a.id)
  }

  private async stopAccount(accountId: string): Promise<void> {
    const stops: Promise<void>[] = []
    for (const [id, r] of this.runners) {
      if (r.account.id !== accountId) continue
      this.runners.delete(id)
      this.ruleStatus.delete(id)
      stops.push(r.stop())
    }
    await Promise.all(stops)
  }

  private async restartAccount(accountId: string): Promise<void> {
    await this.stopAccount(accountId)
    const a = this.account(accountId)
    if (a && this.watching !== false) this.startAccount(a)
    else this.aggregate(accountId)
  }

  /** Reads every mailbox of an account now (the demo's inbox, held until then, starts being read). */
  async checkNow(accountId: string): Promise<void> {
    const e = this.ephemeral.get(accountId)
    if (e && !e.account.enabled) {
      e.account = { ...e.account, enabled: true }
      await this.restartAccount(accountId)
      return
    }
    for (const r of this.runners.values()) if (r.account.id === accountId) r.wake()
  }

  /**
   * `--once`, first half: reads each rule's mailbox and takes every receipt. Returns the problems
   * (one per account and rule that could not be read), each naming the account and what to do.
   */
  async readOnce(ruleIds: readonly string[]): Promise<MailError[]> {
    const runners = this.onceRunners(ruleIds)
    const errors: MailError[] = []
    await Promise.all(
      runners.map((r) =>
        r.readOnce().catch((e: unknown) => {
          errors.push(asMailError(e, r.account.label))
        }),
      ),
    )
    return errors
  }

  /** `--once`, second half (after the jobs): the after-action of every mail whose receipts all have records. */
  async actOnce(ruleIds: readonly string[]): Promise<MailError[]> {
    const errors: MailError[] = []
    for (const r of this.onceRunners(ruleIds)) {
      await r.actOnce().catch((e: unknown) => {
        errors.push(asMailError(e, r.account.label))
      })
    }
    return errors
  }

  private readonly once = new Map<string, RuleRunner>()

  private onceRunners(ruleIds: readonly string[]): RuleRunner[] {
    const out: RuleRunner[] = []
    for (const id of ruleIds) {
      let runner = this.once.get(id)
      if (!runner) {
        const rule = this.rule(id)
        const account = rule ? this.account(rule.accountId) : undefined
        if (!rule || !account) continue
        runner = this.runnerFor(account, rule)
        this.once.set(id, runner)
      }
      out.push(runner)
    }
    return out
  }

  async stop(): Promise<void> {
    this.closed = true
    const all = [...this.runners.values(), ...this.once.values()]
    this.runners.clear()
    this.once.clear()
    await Promise.all(all.map((r) => r.stop()))
    await this.textPool?.close()
    this.textPool = null
  }

  // ---- states --------------------------------------------------------------------------------

  private setRuleStatus(accountId: string, ruleId: string, s: Partial<MailAccountStatus>): void {
    const prev = this.ruleStatus.get(ruleId) ?? INITIAL
    const next: MailAccountStatus = { ...prev, ...s }
    // A new message without a code (cleared, or plain words) drops the old message's code.
    if ('message' in s && !s.messageCoded) delete next.messageCoded
    this.ruleStatus.set(ruleId, next)
    this.aggregate(accountId)
  }

  /** An account's state: its worst rule's (an error wins), the latest check of all. */
  private aggregate(accountId: string): void {
    const a = this.account(accountId)
    let next: MailAccountStatus
    if (!a) return
    if (!a.enabled) next = { ...INITIAL, state: 'disabled' }
    else {
      const rules = this.rulesOf(accountId)
        .map((r) => this.ruleStatus.get(r.id))
        .filter((x): x is MailAccountStatus => !!x)
      if (rules.length === 0) next = this.accountStatus.get(accountId) ?? INITIAL
      else {
        const worst = rules.reduce((w, r) => (RANK[r.state] > RANK[w.state] ? r : w))
        const checks = rules.map((r) => r.lastCheckAt).filter((t): t is number => t !== null)
        next = {
          state: worst.state,
          message: worst.message,
          ...(worst.messageCoded ? { messageCoded: worst.messageCoded } : {}),
          problem: worst.problem,
          lastCheckAt: checks.length ? Math.max(...checks) : null,
          idle: rules.every((r) => r.idle),
        }
      }
    }
    const prev = this.accountStatus.get(accountId)
    this.accountStatus.set(accountId, next)
    if (prev && JSON.stringify(prev) === JSON.stringify(next)) return
    this.d.events.emit('mail', { accountId, ...next })
  }

  // ---- receipts and records ------------------------------------------------------------------

  /** An upload completed: the mails it (or a duplicate of it) is a receipt of may be recorded now. */
  private recordedUpload(uploadId: number): void {
    for (const id of this.store.mailsOfUpload(uploadId)) this.checkRecorded(id)
  }

  /** Marks a mail recorded once every receipt in it has its record; its runner then acts on it. */
  checkRecorded(mailId: number): void {
    if (!this.store.openAndRecorded(mailId)) return
    const m = this.store.mail(mailId)
    if (m && this.store.setState(m.id, 'open', 'recorded')) this.runners.get(m.rule_id)?.requestAct()
  }

  /** The queue's hook: a mail's body text is sent as text_attachment (null: send the file). */
  async textOf(row: Upload): Promise<string | null> {
    if (!this.store.isBodyText(row.id)) return null
    return readBodyText(row)
  }

  private async bodyText(type: 'text/plain' | 'text/html', text: string): Promise<string> {
    if (type === 'text/plain') return text.replace(/\r\n?/g, '\n').trim().slice(0, 100_000)
    if (!this.textPool) {
      const { mailTextPool } = await import('./text')
      this.textPool = mailTextPool()
    }
    return this.textPool.run('bodyText', { type, text })
  }
}
