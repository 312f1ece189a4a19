import { useState } from 'react'
import { defineMessages } from 'react-intl'
import { useI18n } from '../lib/i18n'
import { useApp } from '../store'
import { useSubmit } from '../lib/useSubmit'
import type { Req } from '../lib/types'
import { Choice, Field, FormActions, FormError, SecretField, TextField } from './Field'

type Env = Req<'addProfile'>['environment']
type Kind = 'business' | 'partner'

interface Props {
  /** Called with the new profile's id once it is saved. */
  onDone?: (id: string) => void
  /** Whether the new profile becomes the active one. */
  activate?: boolean
  submitLabel?: string
}

const m = defineMessages({
  keyHintBusiness: {
    id: 'app.connect.key_hint_business',
    defaultMessage:
      'The business secret key (svc_sk_…), from the application: Settings, API. Not the public svc_pk_ key. It is checked with the server, then kept in the system keychain only.',
  },
  keyHintPartner: {
    id: 'app.connect.key_hint_partner',
    defaultMessage:
      'Your distributor partner secret key (svc_partner_sk_…). It is checked with the server, then kept in the system keychain only.',
  },
  connect: { id: 'app.connect.submit', defaultMessage: 'Connect' },
  nameMissing: { id: 'app.connect.name_missing', defaultMessage: 'Give the profile a name, such as the business name.' },
  secretMissing: { id: 'app.connect.secret_missing', defaultMessage: 'Paste the secret key.' },
  baseUrlMissing: { id: 'app.connect.base_url_missing', defaultMessage: 'Enter the base URL, ending in the version (…/v1).' },
  notConnected: { id: 'app.connect.not_connected', defaultMessage: 'Not connected: {message}' },
  name: { id: 'app.connect.name', defaultMessage: 'Profile name' },
  nameHint: { id: 'app.connect.name_hint', defaultMessage: 'Shown in the status bar, e.g. the business name.' },
  kind: { id: 'app.connect.kind', defaultMessage: 'Kind of key' },
  business: { id: 'app.connect.kind_business', defaultMessage: 'Business' },
  partner: { id: 'app.connect.kind_partner', defaultMessage: 'Partner (accountant or distributor)' },
  environment: { id: 'app.connect.environment', defaultMessage: 'Environment' },
  production: { id: 'app.connect.production', defaultMessage: 'Production' },
  sandbox: { id: 'app.connect.sandbox', defaultMessage: 'Sandbox' },
  custom: { id: 'app.connect.custom', defaultMessage: 'Custom base URL' },
  baseUrl: { id: 'app.connect.base_url', defaultMessage: 'Base URL' },
  baseUrlHint: {
    id: 'app.connect.base_url_hint',
    defaultMessage: 'https://…/v1 (http is allowed only on this computer, e.g. http://127.0.0.1:4010/v1).',
  },
  secret: { id: 'app.connect.secret', defaultMessage: 'Secret key' },
  checking: { id: 'app.connect.checking', defaultMessage: 'Checking the key…' },
})

/**
 * Connect with a key: main checks it against the server before anything is saved. What went wrong
 * is said plainly, next to the field it is about.
 */
export function ConnectForm({ onDone, activate = true, submitLabel }: Props) {
  const intl = useI18n()
  const addProfile = useApp((s) => s.addProfile)
  const [name, setName] = useState('')
  const [kind, setKind] = useState<Kind>('business')
  const [environment, setEnvironment] = useState<Env>('production')
  const [baseUrl, setBaseUrl] = useState('')
  const [secret, setSecret] = useState('')
  const { busy, error, fields, submit: send, refuse } = useSubmit()

  const submit = async (e: React.FormEvent) => {
    e.preventDefault()
    const problems: Record<string, string> = {}
    if (!name.trim()) problems.name = intl.formatMessage(m.nameMissing)
    if (!secret.trim()) problems.secret = intl.formatMessage(m.secretMissing)
    if (environment === 'custom' && !baseUrl.trim()) problems.baseUrl = intl.formatMessage(m.baseUrlMissing)
    if (Object.keys(problems).length) {
      refuse(null, problems)
      return
    }
    const added = await send(
      () =>
        addProfile(
          {
            name: name.trim(),
            kind,
            environment,
            secret: secret.trim(),
            ...(environment === 'custom' ? { baseUrl: baseUrl.trim() } : {}),
          },
          activate,
        ),
      (e) => intl.formatMessage(m.notConnected, { message: e.message }),
    )
    if (!added) return
    setSecret('')
    onDone?.(added.id)
  }

  const fieldError = (f: string) => fields[f] ?? null

  return (
    <form className="form" onSubmit={submit} noValidate aria-busy={busy}>
      <TextField
        label={intl.formatMessage(m.name)}
        error={fieldError('name')}
        hint={intl.formatMessage(m.nameHint)}
        value={name}
        onChange={setName}
        input={{ autoComplete: 'off' }}
      />
      <Choice
        legend={intl.formatMessage(m.kind)}
        name="kind"
        choices={[
          ['business', intl.formatMessage(m.business)],
          ['partner', intl.formatMessage(m.partner)],
        ]}
        value={kind}
        onChange={setKind}
        error={fieldError('kind')}
      />
      <Field label={intl.formatMessage(m.environment)} error={fieldError('environment')}>
        {(p) => (
          <select {...p} value={environment} onChange={(e) => setEnvironment(e.target.value as Env)}>
            <option value="production">{intl.formatMessage(m.production)}</option>
            <option value="sandbox">{intl.formatMessage(m.sandbox)}</option>
            <option value="custom">{intl.formatMessage(m.custom)}</option>
          </select>
        )}
      </Field>
      {environment === 'custom' ? (
        <TextField
          label={intl.formatMessage(m.baseUrl)}
          error={fieldError('baseUrl')}
          hint={intl.formatMessage(m.baseUrlHint)}
          value={baseUrl}
          onChange={setBaseUrl}
          input={{ type: 'url', placeholder: 'https://api.example.com/v1' }}
        />
      ) : null}
      <SecretField
        label={intl.formatMessage(m.secret)}
        error={fieldError('secret')}
        hint={intl.formatMessage(kind === 'business' ? m.keyHintBusiness : m.keyHintPartner)}
        value={secret}
        onChange={setSecret}
      />
      <FormError message={error} />
      <FormActions busy={busy} busyLabel={intl.formatMessage(m.checking)}>
        {submitLabel ?? intl.formatMessage(m.connect)}
      </FormActions>
    </form>
  )
}
