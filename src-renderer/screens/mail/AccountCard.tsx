import type { Tone } from '../../components/Badge'
import { formatDateTime, formatRelative } from '../../lib/format'
import { MAIL_STATE_LABELS, TARGET_LABELS } from '../../lib/labels'
import type { MailAccountState, MailAccountView, MailRuleConfig } from '../../lib/types'
import { SourceHead } from '../../components/SourceList'
import { SECURITY_LABELS } from './AccountForm'
import { ruleSummary } from './RuleForm'

const STATE_TONE: Record<MailAccountState, Tone> = {
  starting: 'busy',
  connecting: 'busy',
  connected: 'good',
  waiting: 'warn',
  error: 'bad',
  disabled: 'neutral',
}

/** What an account card's buttons ask the screen for. */
export type MailEdit =
  | { kind: 'account'; account: MailAccountView }
  | { kind: 'rule'; account: MailAccountView; rule: MailRuleConfig | null }
  | { kind: 'removeAccount'; account: MailAccountView }
  | { kind: 'removeRule'; account: MailAccountView; rule: MailRuleConfig }

/** One mail account: where it reads, its state and last check, its rules, and what can be done. */
export function AccountCard({
  account: a,
  onEdit,
  onCheck,
  onDemoMail,
}: {
  account: MailAccountView
  onEdit: (e: MailEdit) => void
  onCheck: () => void
  onDemoMail: () => void
}) {
  return (
    <li className="card folder">
      <SourceHead
        title={<h2 className="h3">{a.label}</h2>}
        details={
          <>
            {a.demo
              ? 'The demo’s inbox, in memory (no network)'
              : `${a.user} on ${a.host}:${a.port} · ${SECURITY_LABELS[a.security]}`}
            {a.status.state === 'connected'
              ? a.status.idle
                ? ' · new mail pushed (IDLE)'
                : ' · polling'
              : ''}
          </>
        }
        tone={STATE_TONE[a.status.state]}
        state={MAIL_STATE_LABELS[a.status.state]}
      />
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
          <span title={formatDateTime(a.status.lastCheckAt)}>{formatRelative(a.status.lastCheckAt)}</span>
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
                  onClick={() => onEdit({ kind: 'rule', account: a, rule: r })}
                >
                  Edit
                </button>
                <button
                  type="button"
                  className="btn btn--small btn--danger-ghost"
                  onClick={() => onEdit({ kind: 'removeRule', account: a, rule: r })}
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
        <button type="button" className="btn btn--small" onClick={onCheck}>
          {a.demo && a.status.state === 'disabled' ? 'Read the demo inbox' : 'Check now'}
        </button>
        {a.demo ? (
          <button type="button" className="btn btn--small" onClick={onDemoMail}>
            Send a test receipt
          </button>
        ) : (
          (
            [
              ['Add rule…', { kind: 'rule', account: a, rule: null }],
              ['Account settings…', { kind: 'account', account: a }],
              ['Remove…', { kind: 'removeAccount', account: a }],
            ] as const
          ).map(([label, edit]) => (
            <button
              key={label}
              type="button"
              className={`btn btn--small${edit.kind === 'removeAccount' ? ' btn--danger-ghost' : ''}`}
              onClick={() => onEdit(edit)}
            >
              {label}
            </button>
          ))
        )}
      </div>
    </li>
  )
}
