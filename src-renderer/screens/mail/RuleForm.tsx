import { defineMessages } from 'react-intl'
import { getIntl, useI18n } from '../../lib/i18n'
import { Check, Choice, DateField, TextField } from '../../components/Field'
import { MAIL_AFTER_LABELS, TARGET_LABELS } from '../../lib/labels'
import type { AiTarget, MailAfter, MailRuleConfig, Result } from '../../lib/types'
import { RuleFields, ruleFieldsRequest } from '../../components/RuleFields'
import { SourceForm, useSourceForm } from '../../components/SourceList'

/** A mail rule's form: which mails of a mailbox, what is sent, and what happens to the mail after. */

const m = defineMessages({
  addRule: { id: 'mail.ruleForm.addRule', defaultMessage: 'Add rule' },
  save: { id: 'mail.ruleForm.save', defaultMessage: 'Save' },
  mailbox: { id: 'mail.ruleForm.mailbox', defaultMessage: 'Mailbox' },
  mailboxHint: {
    id: 'mail.ruleForm.mailboxHint',
    defaultMessage: 'INBOX, or levels separated by /, e.g. Receipts/2026.',
  },
  from: { id: 'mail.ruleForm.from', defaultMessage: 'From contains' },
  fromHint: { id: 'mail.ruleForm.fromHint', defaultMessage: 'Part of the address or the name; any case.' },
  subject: { id: 'mail.ruleForm.subject', defaultMessage: 'Subject contains' },
  since: { id: 'mail.ruleForm.since', defaultMessage: 'Read mails received since' },
  sinceHint: { id: 'mail.ruleForm.sinceHint', defaultMessage: 'Empty: 30 days before the rule was added.' },
  after: { id: 'mail.ruleForm.after', defaultMessage: 'Once every receipt of a mail has its record' },
  moveTo: { id: 'mail.ruleForm.moveTo', defaultMessage: 'Move to mailbox' },
  moveToHint: {
    id: 'mail.ruleForm.moveToHint',
    defaultMessage: 'Created if it is not there. Bookdrop never deletes a mail.',
  },
  sendBody: {
    id: 'mail.ruleForm.sendBody',
    defaultMessage: 'When a mail has no receipt attached, send its text',
  },
  sendBodyHint: {
    id: 'mail.ruleForm.sendBodyHint',
    defaultMessage:
      'For receipts written in the mail itself (online orders). Otherwise such mails are skipped and left untouched.',
  },
  enabled: { id: 'mail.ruleForm.enabled', defaultMessage: 'Enabled' },
  sumTarget: { id: 'mail.rule.sumTarget', defaultMessage: '{mailbox} → {target}' },
  sumFrom: { id: 'mail.rule.sumFrom', defaultMessage: 'from “{text}”' },
  sumSubject: { id: 'mail.rule.sumSubject', defaultMessage: 'subject “{text}”' },
  sumSince: { id: 'mail.rule.sumSince', defaultMessage: 'since {date}' },
  sumMoved: { id: 'mail.rule.sumMoved', defaultMessage: 'then moved to {mailbox}' },
  sumSeen: { id: 'mail.rule.sumSeen', defaultMessage: 'then marked read' },
  sumLeft: { id: 'mail.rule.sumLeft', defaultMessage: 'then left as is' },
  sumBody: { id: 'mail.rule.sumBody', defaultMessage: 'mail text sent when nothing is attached' },
  sumOff: { id: 'mail.rule.sumOff', defaultMessage: 'off' },
})

export interface RuleValues {
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

export const blankRule = (): RuleValues => ({
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

export const fromRule = (r: MailRuleConfig): RuleValues => ({
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

export function RuleForm({
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
  const form = useSourceForm(initial, onSubmit, 'rule')
  const { values: v, set, fe, text, check } = form
  const intl = useI18n()
  return (
    <SourceForm form={form} submitLabel={intl.formatMessage(isNew ? m.addRule : m.save)} onCancel={onCancel}>
      <TextField
        label={intl.formatMessage(m.mailbox)}
        required
        hint={intl.formatMessage(m.mailboxHint)}
        {...text('mailbox')}
        input={{ spellCheck: false }}
      />
      <RuleFields values={v} set={set} error={fe} source="mail">
        <TextField
          label={intl.formatMessage(m.from)}
          hint={intl.formatMessage(m.fromHint)}
          {...text('fromContains')}
        />
        <TextField label={intl.formatMessage(m.subject)} {...text('subjectContains')} />
        <DateField
          label={intl.formatMessage(m.since)}
          error={fe('since')}
          hint={intl.formatMessage(m.sinceHint)}
          value={v.since}
          onChange={(d) => set('since', d)}
        />
      </RuleFields>
      <Choice
        legend={intl.formatMessage(m.after)}
        className="span-2"
        name={`after-${initial.mailbox}-${isNew ? 'new' : 'edit'}`}
        choices={(['seen', 'move', 'leave'] as const).map((a) => [a, MAIL_AFTER_LABELS[a]] as const)}
        value={v.after}
        onChange={(a) => set('after', a)}
        error={fe('after')}
      />
      {v.after === 'move' ? (
        <TextField
          label={intl.formatMessage(m.moveTo)}
          className="span-2"
          hint={intl.formatMessage(m.moveToHint)}
          {...text('moveTo')}
          input={{ spellCheck: false }}
        />
      ) : null}
      <div className="span-2 checks">
        <Check
          label={intl.formatMessage(m.sendBody)}
          {...check('sendBody')}
          hint={intl.formatMessage(m.sendBodyHint)}
        />
        <Check label={intl.formatMessage(m.enabled)} {...check('enabled')} />
      </div>
    </SourceForm>
  )
}

export function ruleRequest(accountId: string, v: RuleValues) {
  return {
    accountId,
    mailbox: v.mailbox.trim(),
    ...ruleFieldsRequest(v),
    fromContains: v.fromContains.trim() || null,
    subjectContains: v.subjectContains.trim() || null,
    since: v.since || null,
    after: v.after,
    ...(v.after === 'move' ? { moveTo: v.moveTo.trim() } : {}),
    sendBody: v.sendBody,
    enabled: v.enabled,
  }
}

/** A rule in one line: mailbox → target, its filters, and what happens to a mail after. */
export function ruleSummary(r: MailRuleConfig): string {
  const intl = getIntl()
  const parts = [intl.formatMessage(m.sumTarget, { mailbox: r.mailbox, target: TARGET_LABELS[r.target] })]
  if (r.fromContains) parts.push(intl.formatMessage(m.sumFrom, { text: r.fromContains }))
  if (r.subjectContains) parts.push(intl.formatMessage(m.sumSubject, { text: r.subjectContains }))
  parts.push(intl.formatMessage(m.sumSince, { date: r.since }))
  parts.push(
    r.after === 'move'
      ? intl.formatMessage(m.sumMoved, { mailbox: r.moveTo })
      : intl.formatMessage(r.after === 'seen' ? m.sumSeen : m.sumLeft),
  )
  if (r.sendBody) parts.push(intl.formatMessage(m.sumBody))
  if (!r.enabled) parts.push(intl.formatMessage(m.sumOff))
  return parts.join(' · ')
}
