import { useEffect, useState } from 'react'
import { Badge } from '../components/Badge'
import { ConfirmDialog, Dialog } from '../components/Dialog'
import {
  Check,
  Choice,
  DateField,
  Field,
  FormActions,
  FormError,
  SecretField,
  TargetOptions,
  TextAreaField,
  TextField,
} from '../components/Field'
import { Screen } from '../components/Screen'
import { formatDateTime, formatRelative } from '../lib/format'
import { MAIL_AFTER_LABELS, MAIL_STATE_LABELS, TARGET_LABELS } from '../lib/labels'
import type {
  AiTarget,
  MailAccountState,
  MailAccountView,
  MailAfter,
  MailRuleConfig,
  Result,
} from '../lib/types'
import { useSubmit } from '../lib/useSubmit'
import { useApp } from '../store'
import { useShallow } from 'zustand/react/shallow'

type Security = MailAccountView['security']

const STATE_TONE: Record<MailAccountState, 'neutral' | 'busy' | 'good' | 'warn' | 'bad'> = {
  starting: 'busy',
  connecting: 'busy',
  connected: 'good',
  waiting: 'warn',
  error: 'bad',
  disabled: 'neutral',
}

const SECURITY_LABELS: Record<Security, string> = {
  tls: 'TLS (port 993)',
  starttls: 'STARTTLS (port 143)',
  plain: 'None (this computer only)',
}

/** A field's message, whether main named it as the account's field or as the request's. */
const fieldOf = (fields: Record<string, string>, k: string, prefix: string) =>
  fields[k] ?? fields[`${prefix}.${k}`]

// ---- account form -------------------------------------------------------------------------------

interface AccountValues {
  label: string
  host: string
  port: string
  security: Security
  user: string
  password: string
  usePolling: boolean
  pollSeconds: string
  enabled: boolean
}

const blankAccount = (): AccountValues => ({
  label: '',
  host: '',
  port: '',
  security: 'tls',
  user: '',
  password: '',
  usePolling: false,
  pollSeconds: '60',
  enabled: true,
})

const fromAccount = (a: MailAccountView): AccountValues => ({
  label: a.label,
  host: a.host,
  port: String(a.port),
  security: a.security,
  user: a.user,
  password: '',
  usePolling: a.usePolling,
  pollSeconds: String(a.pollSeconds),
  enabled: a.enabled,
})

function AccountForm({
  initial,
  isNew,
  onSubmit,
  onCancel,
}: {
  initial: AccountValues
  isNew: boolean
  onSubmit: (v: AccountValues) => Promise<Result<unknown>>
  onCancel: () => void
}) {
  const [v, setV] = useState(initial)
  const { busy, error, fields, submit } = useSubmit()
  const set = <K extends keyof AccountValues>(k: K, value: AccountValues[K]) =>
    setV((o) => ({ ...o, [k]: value }))
  const fe = (k: string) => fieldOf(fields, k, 'account')
  return (
    <form
      className="form form--grid"
      noValidate
      onSubmit={(e) => {
        e.preventDefault()
        void submit(async () => {
          const r = await onSubmit(v)
          // The password is not kept in the form once it was sent.
          if (r.ok) setV((o) => ({ ...o, password: '' }))
          return r
        })
      }}
    >
      <TextField
        label="IMAP server"
        required
        error={fe('host')}
        hint="e.g. imap.gmail.com or outlook.office365.com"
        value={v.host}
        onChange={(t) => set('host', t)}
        input={{ spellCheck: false, autoComplete: 'off' }}
      />
      <TextField
        label="Port"
        error={fe('port')}
        hint="Empty: 993 for TLS, 143 for STARTTLS."
        value={v.port}
        onChange={(t) => set('port', t.replace(/\D/g, ''))}
        input={{ inputMode: 'numeric' }}
      />
      <TextField
        label="User name"
        required
        error={fe('user')}
        hint="Usually the whole e-mail address."
        value={v.user}
        onChange={(t) => set('user', t)}
        input={{ spellCheck: false, autoComplete: 'off' }}
      />
      <SecretField
        label={isNew ? 'Password or app password' : 'New password (empty keeps the saved one)'}
        error={fields.password}
        hint="Kept in the OS keychain, never on disk or shown again. Gmail and Microsoft 365 need an app password."
        value={v.password}
        onChange={(t) => set('password', t)}
      />
      <Choice
        legend="Security"
        className="span-2"
        name={`security-${initial.host || 'new'}`}
        choices={(['tls', 'starttls', 'plain'] as const).map((s) => [s, SECURITY_LABELS[s]] as const)}
        value={v.security}
        onChange={(s) => set('security', s)}
        error={fe('security')}
      />
      <TextField
        label="Name"
        error={fe('label')}
        hint="Empty: user@server."
        value={v.label}
        onChange={(t) => set('label', t)}
      />
      <div className="checks">
        <Check
          label="Poll instead of waiting for new mail (IDLE)"
          checked={v.usePolling}
          onChange={(c) => set('usePolling', c)}
          hint="For servers that do not push new mail."
        />
        {v.usePolling ? (
          <TextField
            label="Every (seconds)"
            error={fe('pollSeconds')}
            value={v.pollSeconds}
            onChange={(t) => set('pollSeconds', t.replace(/\D/g, ''))}
            input={{ inputMode: 'numeric' }}
          />
        ) : null}
        <Check label="Enabled" checked={v.enabled} onChange={(c) => set('enabled', c)} />
      </div>
      <div className="span-2">
        <FormError message={error} />
        <FormActions onCancel={onCancel} busy={busy} busyLabel="Saving…">
          {isNew ? 'Add account' : 'Save'}
        </FormActions>
      </div>
    </form>
  )
}

// ---- rule form ----------------------------------------------------------------------------------

interface RuleValues {
  mailbox: string
  target: AiTarget
  fromContains: string
  subjectContains: string
  since: string
  acceptedKinds: string
  promptTemplate: string
  after: MailAfter
  moveTo: string
  sendBody: boolean
  enabled: boolean
}

const blankRule = (): RuleValues => ({
  mailbox: 'INBOX',
  target: 'expenses',
  fromContains: '',
  subjectContains: '',
  since: '',
  acceptedKinds: '',
  promptTemplate: '',
  after: 'seen',
  moveTo: 'Bookdrop/Done',
  sendBody: false,
  enabled: true,
})

const fromRule = (r: MailRuleConfig): RuleValues => ({
  mailbox: r.mailbox,
  target: r.target,
  fromContains: r.fromContains ?? '',
  subjectContains: r.subjectContains ?? '',
  since: r.since,
  acceptedKinds: r.acceptedKinds.join(', '),
  promptTemplate: r.promptTemplate,
  after: r.after,
  moveTo: r.moveTo,
  sendBody: r.sendBody,
  enabled: r.enabled,
})

function RuleForm({
  initial,
  isNew,
  onSubmit,
  onCancel,
}: {
  initial: RuleValues
  isNew: boolean
  onSubmit: (v: RuleValues) => Promise<Result<unknown>>
  onCancel: () => void
}) {
  const [v, setV] = useState(initial)
  const { busy, error, fields, submit } = useSubmit()
  const set = <K extends keyof RuleValues>(k: K, value: RuleValues[K]) => setV((o) => ({ ...o, [k]: value }))
  const fe = (k: string) => fieldOf(fields, k, 'rule')
  return (
    <form
      className="form form--grid"
      noValidate
      onSubmit={(e) => {
        e.preventDefault()
        void submit(() => onSubmit(v))
      }}
    >
      <TextField
        label="Mailbox"
        required
        error={fe('mailbox')}
        hint="INBOX, or levels separated by /, e.g. Receipts/2026."
        value={v.mailbox}
        onChange={(t) => set('mailbox', t)}
        input={{ spellCheck: false }}
      />
      <Field label="Send as" error={fe('target')}>
        {(p) => (
          <select {...p} value={v.target} onChange={(e) => set('target', e.target.value as AiTarget)}>
            <TargetOptions />
          </select>
        )}
      </Field>
      <TextField
        label="From contains"
        error={fe('fromContains')}
        hint="Part of the address or the name; any case."
        value={v.fromContains}
        onChange={(t) => set('fromContains', t)}
      />
      <TextField
        label="Subject contains"
        error={fe('subjectContains')}
        value={v.subjectContains}
        onChange={(t) => set('subjectContains', t)}
      />
      <DateField
        label="Read mails received since"
        error={fe('since')}
        hint="Empty: 30 days before the rule was added."
        value={v.since}
        onChange={(d) => set('since', d)}
      />
      <TextField
        label="Attachment kinds"
        error={fe('acceptedKinds')}
        hint="e.g. pdf, jpg, png. Empty: the usual kinds (no .txt or .eml)."
        value={v.acceptedKinds}
        onChange={(t) => set('acceptedKinds', t)}
        input={{ spellCheck: false }}
      />
      <TextAreaField
        label="Instructions sent with each receipt"
        className="span-2"
        error={fe('promptTemplate')}
        hint={
          <>
            <code>{'{filename}'}</code>, <code>{'{from}'}</code> the sender, <code>{'{subject}'}</code>,{' '}
            <code>{'{folder}'}</code> the mailbox, <code>{'{date}'}</code> the day it arrived. Empty uses the
            default.
          </>
        }
        rows={2}
        value={v.promptTemplate}
        onChange={(t) => set('promptTemplate', t)}
      />
      <Choice
        legend="Once every receipt of a mail has its record"
        className="span-2"
        name={`after-${initial.mailbox}-${isNew ? 'new' : 'edit'}`}
        choices={(['seen', 'move', 'leave'] as const).map((a) => [a, MAIL_AFTER_LABELS[a]] as const)}
        value={v.after}
        onChange={(a) => set('after', a)}
        error={fe('after')}
      />
      {v.after === 'move' ? (
        <TextField
          label="Move to mailbox"
          className="span-2"
          error={fe('moveTo')}
          hint="Created if it is not there. Bookdrop never deletes a mail."
          value={v.moveTo}
          onChange={(t) => set('moveTo', t)}
          input={{ spellCheck: false }}
        />
      ) : null}
      <div className="span-2 checks">
        <Check
          label="When a mail has no receipt attached, send its text"
          checked={v.sendBody}
          onChange={(c) => set('sendBody', c)}
          hint="For receipts written in the mail itself (online orders). Otherwise such mails are skipped and left untouched."
        />
        <Check label="Enabled" checked={v.enabled} onChange={(c) => set('enabled', c)} />
      </div>
      <div className="span-2">
        <FormError message={error} />
        <FormActions onCancel={onCancel} busy={busy} busyLabel="Saving…">
          {isNew ? 'Add rule' : 'Save'}
        </FormActions>
      </div>
    </form>
  )
}

function ruleRequest(accountId: string, v: RuleValues) {
  const kinds = v.acceptedKinds
    .split(/[,\s]+/)
    .map((k) => k.trim().replace(/^\./, '').toLowerCase())
    .filter(Boolean)
  return {
    accountId,
    mailbox: v.mailbox.trim(),
    target: v.target,
    fromContains: v.fromContains.trim() || null,
    subjectContains: v.subjectContains.trim() || null,
    since: v.since || null,
    ...(kinds.length ? { acceptedKinds: kinds } : {}),
    ...(v.promptTemplate.trim() ? { promptTemplate: v.promptTemplate.trim() } : {}),
    after: v.after,
    ...(v.after === 'move' ? { moveTo: v.moveTo.trim() } : {}),
    sendBody: v.sendBody,
    enabled: v.enabled,
  }
}

// ---- the screen ---------------------------------------------------------------------------------

function ruleSummary(r: MailRuleConfig): string {
  const parts = [`${r.mailbox} → ${TARGET_LABELS[r.target]}`]
  if (r.fromContains) parts.push(`from “${r.fromContains}”`)
  if (r.subjectContains) parts.push(`subject “${r.subjectContains}”`)
  parts.push(`since ${r.since}`)
  parts.push(
    r.after === 'move'
      ? `then moved to ${r.moveTo}`
      : r.after === 'seen'
        ? 'then marked read'
        : 'then left as is',
  )
  if (r.sendBody) parts.push('mail text sent when nothing is attached')
  if (!r.enabled) parts.push('off')
  return parts.join(' · ')
}

type Editing =
  | { kind: 'account'; account: MailAccountView }
  | { kind: 'rule'; account: MailAccountView; rule: MailRuleConfig | null }
  | { kind: 'removeAccount'; account: MailAccountView }
  | { kind: 'removeRule'; account: MailAccountView; rule: MailRuleConfig }

export function Mail() {
  const [activeId, accounts] = useApp(useShallow((s) => [s.activeId, s.mailAccounts] as const))
  const [loaded, loadError, load] = useApp(
    useShallow((s) => [s.mailLoaded, s.mailError, s.loadMail] as const),
  )
  const [saveAccount, removeAccount] = useApp(
    useShallow((s) => [s.saveMailAccount, s.removeMailAccount] as const),
  )
  const [saveRule, removeRule] = useApp(useShallow((s) => [s.saveMailRule, s.removeMailRule] as const))
  const [checkMail, addDemoMail, toast] = useApp(
    useShallow((s) => [s.checkMail, s.addDemoMail, s.toast] as const),
  )
  const [adding, setAdding] = useState(false)
  const [editing, setEditing] = useState<Editing | null>(null)
  const [busy, setBusy] = useState(false)

  useEffect(() => {
    if (!loaded && activeId) void load()
  }, [loaded, activeId, load])

  const accountRequest = (v: AccountValues) => ({
    profileId: activeId ?? '',
    host: v.host.trim(),
    ...(v.port ? { port: Number(v.port) } : {}),
    security: v.security,
    user: v.user.trim(),
    ...(v.label.trim() ? { label: v.label.trim() } : {}),
    usePolling: v.usePolling,
    ...(v.usePolling && v.pollSeconds ? { pollSeconds: Number(v.pollSeconds) } : {}),
    enabled: v.enabled,
  })

  const act = async (p: Promise<Result<unknown>>) => {
    const r = await p
    if (!r.ok) toast('error', r.error.message)
  }

  return (
    <Screen
      title="Mail"
      intro="Receipts that arrive by e-mail: Bookdrop reads a mailbox, sends each PDF or image attached once, and marks or moves the mail when every receipt in it has its record."
      actions={
        !adding ? (
          <button type="button" className="btn btn--primary" onClick={() => setAdding(true)}>
            Add mail account
          </button>
        ) : null
      }
    >
      {adding ? (
        <section className="card" aria-labelledby="add-mail-title">
          <h2 id="add-mail-title" className="h3">
            Add a mail account
          </h2>
          <AccountForm
            initial={blankAccount()}
            isNew
            onCancel={() => setAdding(false)}
            onSubmit={async (v) => {
              const r = await saveAccount({
                account: accountRequest(v),
                ...(v.password ? { password: v.password } : {}),
              })
              if (r.ok) {
                setAdding(false)
                // A new account reads nothing until it has a rule: ask for one at once.
                setEditing({ kind: 'rule', account: r.value, rule: null })
              }
              return r
            }}
          />
        </section>
      ) : null}

      {loadError ? (
        <p className="form-error" role="alert">
          {loadError}
        </p>
      ) : null}
      {loaded && accounts.length === 0 && !adding ? (
        <div className="empty">
          <p>No mail account is read for this profile yet.</p>
          <button type="button" className="btn btn--primary" onClick={() => setAdding(true)}>
            Add mail account
          </button>
        </div>
      ) : null}

      <ul className="folder-list">
        {accounts.map((a) => (
          <li key={a.id} className="card folder">
            <div className="folder__head">
              <div>
                <h2 className="h3">{a.label}</h2>
                <div className="muted">
                  {a.demo
                    ? 'The demo’s inbox, in memory (no network)'
                    : `${a.user} on ${a.host}:${a.port} · ${SECURITY_LABELS[a.security]}`}
                  {a.status.state === 'connected'
                    ? a.status.idle
                      ? ' · new mail pushed (IDLE)'
                      : ' · polling'
                    : ''}
                </div>
              </div>
              <div className="folder__state" aria-live="polite">
                <Badge tone={STATE_TONE[a.status.state]}>{MAIL_STATE_LABELS[a.status.state]}</Badge>
              </div>
            </div>
            {a.status.message ? (
              <p
                className={a.status.state === 'error' ? 'form-error' : 'muted'}
                role={a.status.state === 'error' ? 'alert' : undefined}
              >
                {a.status.message}
              </p>
            ) : null}
            {a.demo && a.status.state === 'disabled' ? (
              <p className="muted">
                Sample mails are waiting in the demo inbox: read it to see them become expenses.
              </p>
            ) : null}
            <div className="muted small">
              Last check:{' '}
              {a.status.lastCheckAt ? (
                <span title={formatDateTime(a.status.lastCheckAt)}>
                  {formatRelative(a.status.lastCheckAt)}
                </span>
              ) : (
                'not yet'
              )}
            </div>
            <h3 className="h4">Rules</h3>
            {a.rules.length === 0 ? <p className="muted">No rule: nothing is read. Add one.</p> : null}
            <ul className="plain-list">
              {a.rules.map((r) => (
                <li key={r.id} className="rule">
                  <span>{ruleSummary(r)}</span>
                  {!a.demo ? (
                    <span className="row-actions">
                      <button
                        type="button"
                        className="btn btn--small btn--ghost"
                        onClick={() => setEditing({ kind: 'rule', account: a, rule: r })}
                      >
                        Edit
                      </button>
                      <button
                        type="button"
                        className="btn btn--small btn--danger-ghost"
                        onClick={() => setEditing({ kind: 'removeRule', account: a, rule: r })}
                        aria-label={`Remove the rule ${r.mailbox} → ${TARGET_LABELS[r.target]}`}
                      >
                        Remove
                      </button>
                    </span>
                  ) : null}
                </li>
              ))}
            </ul>
            <div className="folder__actions">
              <button type="button" className="btn btn--small" onClick={() => void act(checkMail(a.id))}>
                {a.demo && a.status.state === 'disabled' ? 'Read the demo inbox' : 'Check now'}
              </button>
              {a.demo ? (
                <button type="button" className="btn btn--small" onClick={() => void act(addDemoMail())}>
                  Send a test receipt
                </button>
              ) : (
                <>
                  <button
                    type="button"
                    className="btn btn--small"
                    onClick={() => setEditing({ kind: 'rule', account: a, rule: null })}
                  >
                    Add rule…
                  </button>
                  <button
                    type="button"
                    className="btn btn--small"
                    onClick={() => setEditing({ kind: 'account', account: a })}
                  >
                    Account settings…
                  </button>
                  <button
                    type="button"
                    className="btn btn--small btn--danger-ghost"
                    onClick={() => setEditing({ kind: 'removeAccount', account: a })}
                  >
                    Remove…
                  </button>
                </>
              )}
            </div>
          </li>
        ))}
      </ul>

      <details className="card help">
        <summary>Gmail, Microsoft 365 and app passwords</summary>
        <p>
          Gmail (imap.gmail.com, TLS) and Microsoft 365 (outlook.office365.com, TLS) refuse your normal
          password here: turn on two-step verification, create an <strong>app password</strong> for Bookdrop
          in your account’s security settings, and paste it as the password. It is kept in the OS keychain.
        </p>
        <p className="muted">
          A mail is marked read (or moved) only when every receipt in it has its record; a mail with no
          receipt is left untouched and shows as skipped in the history. Bookdrop never deletes a mail.
        </p>
      </details>

      {editing?.kind === 'account' ? (
        <Dialog title="Mail account settings" onClose={() => setEditing(null)} wide>
          <AccountForm
            initial={fromAccount(editing.account)}
            isNew={false}
            onCancel={() => setEditing(null)}
            onSubmit={async (v) => {
              const r = await saveAccount({
                id: editing.account.id,
                account: accountRequest(v),
                ...(v.password ? { password: v.password } : {}),
              })
              if (r.ok) setEditing(null)
              return r
            }}
          />
        </Dialog>
      ) : null}
      {editing?.kind === 'rule' ? (
        <Dialog
          title={editing.rule ? 'Mail rule' : `Add a rule to ${editing.account.label}`}
          onClose={() => setEditing(null)}
          wide
        >
          <RuleForm
            initial={editing.rule ? fromRule(editing.rule) : blankRule()}
            isNew={!editing.rule}
            onCancel={() => setEditing(null)}
            onSubmit={async (v) => {
              const r = await saveRule({
                ...(editing.rule ? { id: editing.rule.id } : {}),
                rule: ruleRequest(editing.account.id, v),
              })
              if (r.ok) setEditing(null)
              return r
            }}
          />
        </Dialog>
      ) : null}
      {editing?.kind === 'removeAccount' ? (
        <ConfirmDialog
          title="Stop reading this account?"
          message={
            <p>
              <strong>{editing.account.label}</strong> and its rules are removed, and its password is deleted
              from the keychain. Mails stay on the server; the upload history is kept.
            </p>
          }
          confirmLabel="Remove account"
          danger
          busy={busy}
          onCancel={() => setEditing(null)}
          onConfirm={async () => {
            setBusy(true)
            const r = await removeAccount(editing.account.id)
            setBusy(false)
            if (r.ok) setEditing(null)
            else toast('error', r.error.message)
          }}
        />
      ) : null}
      {editing?.kind === 'removeRule' ? (
        <ConfirmDialog
          title="Remove this rule?"
          message={<p>{ruleSummary(editing.rule)}. Mails stay on the server; the upload history is kept.</p>}
          confirmLabel="Remove rule"
          danger
          busy={busy}
          onCancel={() => setEditing(null)}
          onConfirm={async () => {
            setBusy(true)
            const r = await removeRule(editing.rule.id)
            setBusy(false)
            if (r.ok) setEditing(null)
            else toast('error', r.error.message)
          }}
        />
      ) : null}
    </Screen>
  )
}
