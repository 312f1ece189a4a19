import { useState } from 'react'
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

const KEY_HINT: Record<Kind, string> = {
  business:
    'The business secret key (svc_sk_…), from the application: Settings, API. Not the public svc_pk_ key.',
  partner: 'Your distributor partner secret key (svc_partner_sk_…).',
}

/**
 * Connect with a key: main checks it against the server before anything is saved. What went wrong
 * is said plainly, next to the field it is about.
 */
export function ConnectForm({ onDone, activate = true, submitLabel = 'Connect' }: Props) {
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
    if (!name.trim()) problems.name = 'Give the profile a name, such as the business name.'
    if (!secret.trim()) problems.secret = 'Paste the secret key.'
    if (environment === 'custom' && !baseUrl.trim())
      problems.baseUrl = 'Enter the base URL, ending in the version (…/v1).'
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
      (e) => `Not connected: ${e.message}`,
    )
    if (!added) return
    setSecret('')
    onDone?.(added.id)
  }

  const fieldError = (f: string) => fields[f] ?? null

  return (
    <form className="form" onSubmit={submit} noValidate aria-busy={busy}>
      <TextField
        label="Profile name"
        error={fieldError('name')}
        hint="Shown in the status bar, e.g. the business name."
        value={name}
        onChange={setName}
        input={{ autoComplete: 'off' }}
      />
      <Choice
        legend="Kind of key"
        name="kind"
        choices={[
          ['business', 'Business'],
          ['partner', 'Partner (accountant or distributor)'],
        ]}
        value={kind}
        onChange={setKind}
        error={fieldError('kind')}
      />
      <Field label="Environment" error={fieldError('environment')}>
        {(p) => (
          <select {...p} value={environment} onChange={(e) => setEnvironment(e.target.value as Env)}>
            <option value="production">Production</option>
            <option value="sandbox">Sandbox</option>
            <option value="custom">Custom base URL</option>
          </select>
        )}
      </Field>
      {environment === 'custom' ? (
        <TextField
          label="Base URL"
          error={fieldError('baseUrl')}
          hint="https://…/v1 (http is allowed only on this computer, e.g. http://127.0.0.1:4010/v1)."
          value={baseUrl}
          onChange={setBaseUrl}
          input={{ type: 'url', placeholder: 'https://api.example.com/v1' }}
        />
      ) : null}
      <SecretField
        label="Secret key"
        error={fieldError('secret')}
        hint={`${KEY_HINT[kind]} It is checked with the server, then kept in the system keychain only.`}
        value={secret}
        onChange={setSecret}
      />
      <FormError message={error} />
      <FormActions busy={busy} busyLabel="Checking the key…">
        {submitLabel}
      </FormActions>
    </form>
  )
}
