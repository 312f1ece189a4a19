/**
 * Mail intake's tables (migration 5 in store/db.ts): accounts and rules (their settings, as JSON,
 * like folders), what each rule has read of its mailbox, every mail found (one row per mail per
 * mailbox) and the receipts of each mail, linked to the upload rows they became.
 *
 * No password is ever stored here: accounts name their keychain entry (config.ts mailSecretAccount).
 */
import type { MailAccountConfig, MailRuleConfig } from '../../../contract/types'
import { ConfigTable } from '../store/config-table'
import type { Db } from '../store/db'

export type MailState = 'open' | 'recorded' | 'done' | 'stale'

export interface MailRow {
  id: number
  profile_id: string
  account_id: string
  rule_id: string
  mailbox: string
  uid_validity: string
  uid: number
  message_key: string
  message_id: string | null
  sender: string
  subject: string
  received_at: number | null
  receipts: number
  state: MailState
  after_action: string | null
  note: string | null
}

export interface PartRow {
  mail_id: number
  part: string
  name: string
  size: number | null
  sha256: string | null
  upload_id: number
}

export interface RuleState {
  uidValidity: string
  lastUid: number
  signature: string
}

export type NewMail = Omit<MailRow, 'id' | 'state' | 'after_action' | 'note'>

export class MailStore {
  private readonly accountRows: ConfigTable<MailAccountConfig>

  constructor(private readonly db: Db) {
    this.accountRows = new ConfigTable(db, 'mail_accounts')
  }

  transaction<R>(fn: () => R): R {
    return this.db.transaction(fn)
  }

  // ---- accounts and rules --------------------------------------------------------------------

  accounts(): MailAccountConfig[] {
    return this.accountRows.list()
  }

  account(id: string): MailAccountConfig | undefined {
    return this.accountRows.get(id)
  }

  saveAccount(a: MailAccountConfig): void {
    this.accountRows.save(a)
  }

  /** Removes an account and its rules (the mails found and their uploads stay: they are history). */
  removeAccount(id: string): void {
    this.db.transaction(() => {
      for (const r of this.rules(id)) this.removeRule(r.id)
      this.accountRows.remove(id)
    })
  }

  rules(accountId?: string): MailRuleConfig[] {
    const rows = accountId
      ? this.db.all<{ config: string }>(
          'SELECT config FROM mail_rules WHERE account_id = ? ORDER BY added_at, id',
          accountId,
        )
      : this.db.all<{ config: string }>('SELECT config FROM mail_rules ORDER BY added_at, id')
    return rows.map((r) => JSON.parse(r.config) as MailRuleConfig)
  }

  rule(id: string): MailRuleConfig | undefined {
    const r = this.db.get<{ config: string }>('SELECT config FROM mail_rules WHERE id = ?', id)
    return r ? (JSON.parse(r.config) as MailRuleConfig) : undefined
  }

  saveRule(r: MailRuleConfig): void {
    this.db.run(
      `INSERT INTO mail_rules (id, account_id, config, added_at) VALUES (?, ?, ?, ?)
       ON CONFLICT(id) DO UPDATE SET config = excluded.config, account_id = excluded.account_id`,
      r.id,
      r.accountId,
      JSON.stringify(r),
      r.addedAt,
    )
  }

  removeRule(id: string): void {
    this.db.run('DELETE FROM mail_rules WHERE id = ?', id)
    this.db.run('DELETE FROM mail_rule_state WHERE rule_id = ?', id)
  }

  // ---- what a rule has read ------------------------------------------------------------------

  ruleState(ruleId: string): RuleState | undefined {
    const r = this.db.get<{ uid_validity: string; last_uid: number; signature: string }>(
      'SELECT uid_validity, last_uid, signature FROM mail_rule_state WHERE rule_id = ?',
      ruleId,
    )
    return r ? { uidValidity: r.uid_validity, lastUid: r.last_uid, signature: r.signature } : undefined
  }

  setRuleState(ruleId: string, s: RuleState): void {
    this.db.run(
      `INSERT INTO mail_rule_state (rule_id, uid_validity, last_uid, signature, updated_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(rule_id) DO UPDATE SET uid_validity = excluded.uid_validity, last_uid = excluded.last_uid,
       signature = excluded.signature, updated_at = excluded.updated_at`,
      ruleId,
      s.uidValidity,
      s.lastUid,
      s.signature,
      Date.now(),
    )
  }

  // ---- mails ---------------------------------------------------------------------------------

  mail(id: number): MailRow | undefined {
    return this.db.get<MailRow>('SELECT * FROM mail_messages WHERE id = ?', id)
  }

  /** The mail at this place (account, mailbox, UIDVALIDITY, UID), if it was found before. */
  mailAt(accountId: string, mailbox: string, uidValidity: string, uid: number): MailRow | undefined {
    return this.db.get<MailRow>(
      'SELECT * FROM mail_messages WHERE account_id = ? AND mailbox = ? AND uid_validity = ? AND uid = ?',
      accountId,
      mailbox,
      uidValidity,
      uid,
    )
  }

  insertMail(m: NewMail): MailRow {
    const now = Date.now()
    const { lastInsertRowid } = this.db.run(
      `INSERT INTO mail_messages (profile_id, account_id, rule_id, mailbox, uid_validity, uid, message_key, message_id,
       sender, subject, received_at, receipts, state, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'open', ?, ?)`,
      m.profile_id,
      m.account_id,
      m.rule_id,
      m.mailbox,
      m.uid_validity,
      m.uid,
      m.message_key,
      m.message_id,
      m.sender,
      m.subject,
      m.received_at,
      m.receipts,
      now,
      now,
    )
    return { ...m, id: lastInsertRowid, state: 'open', after_action: null, note: null }
  }

  setState(
    id: number,
    from: MailState,
    to: MailState,
    o: { afterAction?: string | null; note?: string | null } = {},
  ): boolean {
    return (
      this.db.run(
        'UPDATE mail_messages SET state = ?, after_action = COALESCE(?, after_action), note = ?, updated_at = ? WHERE id = ? AND state = ?',
        to,
        o.afterAction ?? null,
        o.note ?? null,
        Date.now(),
        id,
        from,
      ).changes > 0
    )
  }

  /** The mailbox's UIDVALIDITY changed: its mails under another one can no longer be acted on. */
  markStale(accountId: string, mailbox: string, uidValidity: string): number {
    return this.db.run(
      `UPDATE mail_messages SET state = 'stale', note = 'the mailbox was renumbered (UIDVALIDITY changed)', updated_at = ?
       WHERE account_id = ? AND mailbox = ? AND uid_validity != ? AND state IN ('open', 'recorded')`,
      Date.now(),
      accountId,
      mailbox,
      uidValidity,
    ).changes
  }

  /** Mails of a rule under this UIDVALIDITY in `state`, oldest first. */
  mailsIn(ruleId: string, uidValidity: string, state: 'open' | 'recorded'): MailRow[] {
    // The state is written into the query, so SQLite can use the partial index of pending mails.
    const where = state === 'open' ? `state = 'open'` : `state = 'recorded'`
    return this.db.all<MailRow>(
      `SELECT * FROM mail_messages WHERE rule_id = ? AND ${where} AND uid_validity = ? ORDER BY uid`,
      ruleId,
      uidValidity,
    )
  }

  // ---- receipts ------------------------------------------------------------------------------

  parts(mailId: number): PartRow[] {
    return this.db.all<PartRow>(
      'SELECT mail_id, part, name, size, sha256, upload_id FROM mail_parts WHERE mail_id = ?',
      mailId,
    )
  }

  /** Links a receipt of a mail to its upload row; a second link of the same part is ignored. */
  linkPart(p: PartRow): void {
    this.db.run(
      'INSERT OR IGNORE INTO mail_parts (mail_id, part, name, size, sha256, upload_id) VALUES (?, ?, ?, ?, ?, ?)',
      p.mail_id,
      p.part,
      p.name,
      p.size,
      p.sha256,
      p.upload_id,
    )
  }

  /**
   * The upload an earlier copy of the same mail (same profile and Message-ID: another mailbox, or
   * this one before it was renumbered) made of the same part (same number, size and bytes), if
   * any. The bytes decide: a different mail may reuse a Message-ID with the same part layout.
   */
  earlierPart(
    profileId: string,
    messageKey: string,
    part: string,
    size: number,
    notMail: number,
    sha256: string,
  ): number | undefined {
    return this.db.get<{ upload_id: number }>(
      `SELECT p.upload_id FROM mail_messages m JOIN mail_parts p ON p.mail_id = m.id
       LEFT JOIN uploads u ON u.id = p.upload_id
       WHERE m.profile_id = ? AND m.message_key = ? AND m.id != ? AND p.part = ? AND (p.size IS NULL OR p.size = ?)
       AND COALESCE(p.sha256, u.sha256) = ?
       ORDER BY p.id LIMIT 1`,
      profileId,
      messageKey,
      notMail,
      part,
      size,
      sha256,
    )?.upload_id
  }

  /** Mails with a receipt that is this upload, or a duplicate of it (its record counts for them too). */
  mailsOfUpload(uploadId: number): number[] {
    return this.db
      .all<{ mail_id: number }>(
        `SELECT mail_id FROM mail_parts WHERE upload_id = ?
         UNION SELECT p.mail_id FROM uploads u JOIN mail_parts p ON p.upload_id = u.id
         WHERE u.duplicate_of = ?`,
        uploadId,
        uploadId,
      )
      .map((r) => r.mail_id)
  }

  /**
   * True when the mail is open and every receipt in it has its record: its upload completed, or it
   * is a duplicate of an upload that completed (the content was sent once, its record exists), or
   * it was skipped (an empty file, a kind not taken: nothing is left to send; issue 31), or a person
   * discarded it as a possible duplicate (issue 33; one still held is not decided yet). A mail with
   * no receipt at all (its text skipped, "no_receipt") is left untouched. One query (it runs on
   * every completed upload that is a mail's receipt).
   */
  openAndRecorded(mailId: number): boolean {
    const r = this.db.get<{ state: string; receipts: number; parts: number; recorded: number | null }>(
      `SELECT m.state AS state, m.receipts AS receipts, COUNT(p.id) AS parts,
       SUM(CASE WHEN u.status = 'completed' OR (u.status = 'duplicate' AND d.status = 'completed')
         OR u.status = 'discarded' OR (u.status = 'skipped' AND COALESCE(u.reason, '') != 'no_receipt') THEN 1 ELSE 0 END) AS recorded
       FROM mail_messages m LEFT JOIN mail_parts p ON p.mail_id = m.id LEFT JOIN uploads u ON u.id = p.upload_id
       LEFT JOIN uploads d ON d.id = u.duplicate_of WHERE m.id = ?`,
      mailId,
    )
    return !!r && r.state === 'open' && r.parts >= r.receipts && r.parts > 0 && (r.recorded ?? 0) === r.parts
  }

  /** The newest upload row of a file (its id and sha256), if any. */
  latestUploadOf(
    profileId: string,
    target: string,
    path: string,
  ): { id: number; sha256: string | null } | undefined {
    return this.db.get<{ id: number; sha256: string | null }>(
      'SELECT id, sha256 FROM uploads WHERE path = ? AND profile_id = ? AND target = ? ORDER BY id DESC LIMIT 1',
      path,
      profileId,
      target,
    )
  }

  /** True when the upload is a mail's body text (sent as text_attachment). */
  isBodyText(uploadId: number): boolean {
    return (
      this.db.get<{ n: number }>(
        `SELECT 1 AS n FROM mail_parts WHERE upload_id = ? AND part = 'text' LIMIT 1`,
        uploadId,
      ) !== undefined
    )
  }
}
