import { defineMessages } from 'react-intl'
import { getIntl, useI18n } from '../../lib/i18n'
import { Check, Choice, SecretField, TextField } from '../../components/Field'
import type { MailAccountView, Result } from '../../lib/types'
import { SourceForm, useSourceForm } from '../../components/SourceList'
import messages from './AccountForm.messages.json' with { type: 'json' }

/** A mail account's form: the server, the login, how new mail is noticed; and what it sends. */

type Security = MailAccountView['security']

const SECURITY = defineMessages(messages.SECURITY)

export function securityLabel(s: Security): string {
  return getIntl().formatMessage(SECURITY[s])
}

const m = defineMessages(messages.m)

export interface AccountValues {
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

export const blankAccount = (): AccountValues => ({
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

export const fromAccount = (a: MailAccountView): AccountValues => ({
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

export function AccountForm({
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
  const form = useSourceForm(
    initial,
    async (v) => {
      const r = await onSubmit(v)
      // The password is not kept in the form once it was sent.
      if (r.ok) form.set('password', '')
      return r
    },
    'account',
  )
  const { values: v, set, fe, text, check } = form
  const intl = useI18n()
  return (
    <SourceForm
      form={form}
      submitLabel={intl.formatMessage(isNew ? m.addAccount : m.save)}
      onCancel={onCancel}
    >
      <TextField
        label={intl.formatMessage(m.host)}
        required
        hint={intl.formatMessage(m.hostHint)}
        {...text('host')}
        input={{ spellCheck: false, autoComplete: 'off' }}
      />
      <TextField
        label={intl.formatMessage(m.port)}
        hint={intl.formatMessage(m.portHint)}
        {...text('port')}
        onChange={(t) => set('port', t.replace(/\D/g, ''))}
        input={{ inputMode: 'numeric' }}
      />
      <TextField
        label={intl.formatMessage(m.user)}
        required
        hint={intl.formatMessage(m.userHint)}
        {...text('user')}
        input={{ spellCheck: false, autoComplete: 'off' }}
      />
      <SecretField
        label={intl.formatMessage(isNew ? m.passwordNew : m.passwordChange)}
        error={form.fields.password}
        hint={intl.formatMessage(m.passwordHint)}
        value={v.password}
        onChange={(t) => set('password', t)}
      />
      <Choice
        legend={intl.formatMessage(m.security)}
        className="span-2"
        name={`security-${initial.host || 'new'}`}
        choices={(['tls', 'starttls', 'plain'] as const).map((s) => [s, securityLabel(s)] as const)}
        value={v.security}
        onChange={(s) => set('security', s)}
        error={fe('security')}
      />
      <TextField
        label={intl.formatMessage(m.name)}
        hint={intl.formatMessage(m.nameHint)}
        {...text('label')}
      />
      <div className="checks">
        <Check
          label={intl.formatMessage(m.poll)}
          {...check('usePolling')}
          hint={intl.formatMessage(m.pollHint)}
        />
        {v.usePolling ? (
          <TextField
            label={intl.formatMessage(m.every)}
            {...text('pollSeconds')}
            onChange={(t) => set('pollSeconds', t.replace(/\D/g, ''))}
            input={{ inputMode: 'numeric' }}
          />
        ) : null}
        <Check label={intl.formatMessage(m.enabled)} {...check('enabled')} />
      </div>
    </SourceForm>
  )
}

/** What the form sends for the profile `profileId`. */
export const accountRequest = (profileId: string, v: AccountValues) => ({
  profileId,
  host: v.host.trim(),
  ...(v.port ? { port: Number(v.port) } : {}),
  security: v.security,
  user: v.user.trim(),
  ...(v.label.trim() ? { label: v.label.trim() } : {}),
  usePolling: v.usePolling,
  ...(v.usePolling && v.pollSeconds ? { pollSeconds: Number(v.pollSeconds) } : {}),
  enabled: v.enabled,
})
