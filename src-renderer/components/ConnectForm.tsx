import { useState } from 'react'
import { defineMessages } from 'react-intl'
import { useI18n } from '../lib/i18n'
import { useApp } from '../store'
import { useSubmit } from '../lib/useSubmit'
import type { Req } from '../lib/types'
import { Choice, Field, FormActions, FormError, SecretField, TextField } from './Field'
import messages from './ConnectForm.messages.json' with { type: 'json' }

type Env = Req<'addProfile'>['environment']
type Kind = 'business' | 'partner'

interface Props {
  /** Called with the new profile's id once it is saved. */
  onDone?: (id: string) => void
  /** Whether the new profile becomes the active one. */
  activate?: boolean
  submitLabel?: string
}

const m = defineMessages(messages.m)

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
