import { defineMessages } from 'react-intl'
import { getIntl, useI18n } from '../../lib/i18n'
import { Check, Choice, DateField, TextField } from '../../components/Field'
import { MAIL_AFTER_LABELS, TARGET_LABELS } from '../../lib/labels'
import type { AiTarget, MailAfter, MailRuleConfig, Result } from '../../lib/types'
import { RuleFields, ruleFieldsRequest } from '../../components/RuleFields'
import { SourceForm, useSourceForm } from '../../components/SourceList'
import messages from './RuleForm.messages.json' with { type: 'json' }

/** A mail rule's form: which mails of a mailbox, what is sent, and what happens to the mail after. */

const m = defineMessages(messages.m)

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
