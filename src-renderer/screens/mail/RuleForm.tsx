import { Check, Choice, DateField, TextField } from '../../components/Field'
import { MAIL_AFTER_LABELS, TARGET_LABELS } from '../../lib/labels'
import type { AiTarget, MailAfter, MailRuleConfig, Result } from '../../lib/types'
import { RuleFields, ruleFieldsRequest } from '../../components/RuleFields'
import { SourceForm, useSourceForm } from '../../components/SourceList'

/** A mail rule's form: which mails of a mailbox, what is sent, and what happens to the mail after. */

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
  return (
    <SourceForm form={form} submitLabel={isNew ? 'Add rule' : 'Save'} onCancel={onCancel}>
      <TextField
        label="Mailbox"
        required
        hint="INBOX, or levels separated by /, e.g. Receipts/2026."
        {...text('mailbox')}
        input={{ spellCheck: false }}
      />
      <RuleFields values={v} set={set} error={fe} source="mail">
        <TextField
          label="From contains"
          hint="Part of the address or the name; any case."
          {...text('fromContains')}
        />
        <TextField label="Subject contains" {...text('subjectContains')} />
        <DateField
          label="Read mails received since"
          error={fe('since')}
          hint="Empty: 30 days before the rule was added."
          value={v.since}
          onChange={(d) => set('since', d)}
        />
      </RuleFields>
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
          hint="Created if it is not there. Bookdrop never deletes a mail."
          {...text('moveTo')}
          input={{ spellCheck: false }}
        />
      ) : null}
      <div className="span-2 checks">
        <Check
          label="When a mail has no receipt attached, send its text"
          {...check('sendBody')}
          hint="For receipts written in the mail itself (online orders). Otherwise such mails are skipped and left untouched."
        />
        <Check label="Enabled" {...check('enabled')} />
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
