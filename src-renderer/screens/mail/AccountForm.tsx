import { Check, Choice, SecretField, TextField } from '../../components/Field'
import type { MailAccountView, Result } from '../../lib/types'
import { SourceForm, useSourceForm } from '../../components/SourceList'

/** A mail account's form: the server, the login, how new mail is noticed; and what it sends. */

type Security = MailAccountView['security']

export const SECURITY_LABELS: Record<Security, string> = {
  tls: 'TLS (port 993)',
  starttls: 'STARTTLS (port 143)',
  plain: 'None (this computer only)',
}

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
  return (
    <SourceForm form={form} submitLabel={isNew ? 'Add account' : 'Save'} onCancel={onCancel}>
      <TextField
        label="IMAP server"
        required
        hint="e.g. imap.gmail.com or outlook.office365.com"
        {...text('host')}
        input={{ spellCheck: false, autoComplete: 'off' }}
      />
      <TextField
        label="Port"
        hint="Empty: 993 for TLS, 143 for STARTTLS."
        {...text('port')}
        onChange={(t) => set('port', t.replace(/\D/g, ''))}
        input={{ inputMode: 'numeric' }}
      />
      <TextField
        label="User name"
        required
        hint="Usually the whole e-mail address."
        {...text('user')}
        input={{ spellCheck: false, autoComplete: 'off' }}
      />
      <SecretField
        label={isNew ? 'Password or app password' : 'New password (empty keeps the saved one)'}
        error={form.fields.password}
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
      <TextField label="Name" hint="Empty: user@server." {...text('label')} />
      <div className="checks">
        <Check
          label="Poll instead of waiting for new mail (IDLE)"
          {...check('usePolling')}
          hint="For servers that do not push new mail."
        />
        {v.usePolling ? (
          <TextField
            label="Every (seconds)"
            {...text('pollSeconds')}
            onChange={(t) => set('pollSeconds', t.replace(/\D/g, ''))}
            input={{ inputMode: 'numeric' }}
          />
        ) : null}
        <Check label="Enabled" {...check('enabled')} />
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
