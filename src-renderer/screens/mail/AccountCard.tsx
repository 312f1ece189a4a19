import { defineMessages } from 'react-intl'
import { useI18n } from '../../lib/i18n'
import type { Tone } from '../../components/Badge'
import { codedOrText } from '../../lib/coded'
import { formatDateTime, formatRelative } from '../../lib/format'
import { MAIL_STATE_LABELS, TARGET_LABELS } from '../../lib/labels'
import type { MailAccountState, MailAccountView, MailRuleConfig } from '../../lib/types'
import { SourceHead } from '../../components/SourceList'
import { securityLabel } from './AccountForm'
import { ruleSummary } from './RuleForm'
import messages from './AccountCard.messages.json' with { type: 'json' }

const m = defineMessages(messages.m)

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
  const intl = useI18n()
  return (
    <li className="card folder">
      <SourceHead
        title={<h2 className="h3">{a.label}</h2>}
        details={
          <>
            {a.demo
              ? intl.formatMessage(m.demoInbox)
              : intl.formatMessage(m.where, {
                  user: a.user,
                  server: `${a.host}:${a.port}`,
                  security: securityLabel(a.security),
                })}
            {a.status.state === 'connected'
              ? ` · ${intl.formatMessage(a.status.idle ? m.pushed : m.polling)}`
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
          {codedOrText(a.status.messageCoded, a.status.message)}
        </p>
      ) : null}
      {a.demo && a.status.state === 'disabled' ? (
        <p className="muted">{intl.formatMessage(m.samplesWaiting)}</p>
      ) : null}
      <div className="muted small">
        {intl.formatMessage(m.lastCheck, {
          when: a.status.lastCheckAt ? (
            <span key="when" title={formatDateTime(a.status.lastCheckAt)}>
              {formatRelative(a.status.lastCheckAt)}
            </span>
          ) : (
            intl.formatMessage(m.notYet)
          ),
        })}
      </div>
      <h3 className="h4">{intl.formatMessage(m.rules)}</h3>
      {a.rules.length === 0 ? <p className="muted">{intl.formatMessage(m.noRule)}</p> : null}
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
                  {intl.formatMessage(m.edit)}
                </button>
                <button
                  type="button"
                  className="btn btn--small btn--danger-ghost"
                  onClick={() => onEdit({ kind: 'removeRule', account: a, rule: r })}
                  aria-label={intl.formatMessage(m.removeRule, {
                    mailbox: r.mailbox,
                    target: TARGET_LABELS[r.target],
                  })}
                >
                  {intl.formatMessage(m.remove)}
                </button>
              </span>
            ) : null}
          </li>
        ))}
      </ul>
      <div className="folder__actions">
        <button type="button" className="btn btn--small" onClick={onCheck}>
          {intl.formatMessage(a.demo && a.status.state === 'disabled' ? m.readDemo : m.checkNow)}
        </button>
        {a.demo ? (
          <button type="button" className="btn btn--small" onClick={onDemoMail}>
            {intl.formatMessage(m.testReceipt)}
          </button>
        ) : (
          (
            [
              [intl.formatMessage(m.addRule), { kind: 'rule', account: a, rule: null }],
              [intl.formatMessage(m.accountSettings), { kind: 'account', account: a }],
              [intl.formatMessage(m.removeEllipsis), { kind: 'removeAccount', account: a }],
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
