import { useMemo, useState } from 'react'
import type { MessageDescriptor } from 'react-intl'
import { GRANT_ACCESS, PASSWORD_RULES, registerBusinessSchema } from '../../../contract/api'
import {
  Check,
  Field,
  FormActions,
  FormError,
  Options,
  SubmitButton,
  TextField,
} from '../../components/Field'
import { Screen } from '../../components/Screen'
import { countryOptions, currencyOptions, localTimeZone, timeZones } from '../../lib/iso'
import type { Res } from '../../lib/types'
import { bookdrop } from '../../lib/bridge'
import { getIntl, useI18n } from '../../lib/i18n'
import { settle } from '../../lib/result'
import { useApp } from '../../store'
import { type FieldIssue, type FormLines, formErrorLine, useSubmit, wordIssues } from '../../lib/useSubmit'
import { m, rule } from './register-words'

/** What the form's error line says. */
const FORM_LINES: FormLines = { refused: m.refused, invalid: m.invalid }

/** Each field's problem in words that say what to do (issue 34); the password's names its missing rules. */
const FIELD_ERRORS: Partial<Record<string, MessageDescriptor>> = {
  email: m.errEmail,
  firstname: m.errFirstname,
  lastname: m.errLastname,
  business_name: m.errBusinessName,
  country: m.errCountry,
  currency: m.errCurrency,
  timezone: m.errTimezone,
  grant_access: m.errAccess,
}

function registerIssue(password: string) {
  return ({ field, code }: FieldIssue): string | undefined => {
    const intl = getIntl()
    if (field !== 'password') {
      const d = FIELD_ERRORS[field]
      return d ? intl.formatMessage(d) : undefined
    }
    if (code !== 'custom') return intl.formatMessage(m.errPasswordMissing)
    const missing = PASSWORD_RULES.filter((r) => !r.test(password)).map((r) => rule(r.id))
    return intl.formatMessage(m.errPassword, { missing: intl.formatList(missing) })
  }
}

type Access = (typeof GRANT_ACCESS)[number]

interface FormState {
  email: string
  firstname: string
  lastname: string
  business_name: string
  password: string
  country: string
  currency: string
  timezone: string
  grant_access: Access
  credit_from_referral_partner: boolean
}

const ACCESS_TEXT = { admin: m.accessAdmin, editor: m.accessEditor, viewer: m.accessViewer } as const

export function Register() {
  const intl = useI18n()
  return (
    <Screen title={intl.formatMessage(m.title)} intro={intl.formatMessage(m.intro)}>
      <RegisterForm />
    </Screen>
  )
}

/** The password rule of the API, ticked part by part as the user types. */
export function PasswordRules({ password, id }: { password: string; id: string }) {
  const intl = useI18n()
  return (
    <ul className="rules" id={id} aria-label={intl.formatMessage(m.rules)}>
      {PASSWORD_RULES.map((r) => {
        const ok = r.test(password)
        return (
          <li key={r.id} className={ok ? 'rules__ok' : 'rules__no'} data-rule={r.id} data-ok={ok}>
            <span aria-hidden="true">{ok ? '✓' : '○'}</span> {rule(r.id)}
            <span className="sr-only">{intl.formatMessage(ok ? m.ruleDone : m.ruleMissing)}</span>
          </li>
        )
      })}
    </ul>
  )
}

export function RegisterForm() {
  const register = useApp((s) => s.registerBusiness)
  const intl = useI18n()
  const zones = useMemo(timeZones, [])
  const countries = useMemo(countryOptions, [intl])
  const currencies = useMemo(currencyOptions, [intl])
  const [f, setF] = useState<FormState>(() => ({
    email: '',
    firstname: '',
    lastname: '',
    business_name: '',
    password: '',
    country: '',
    currency: '',
    timezone: localTimeZone(),
    grant_access: 'admin',
    credit_from_referral_partner: false,
  }))
  const [touched, setTouched] = useState<Record<string, true>>({})
  const [submitted, setSubmitted] = useState(false)
  const [showPassword, setShowPassword] = useState(false)
  // The server's answer: its message, and its message for each field.
  const server = useSubmit()
  const [result, setResult] = useState<Res<'registerBusiness'> | null>(null)

  const parsed = useMemo(() => registerBusinessSchema.safeParse(f), [f])
  const issues = parsed.success ? {} : wordIssues(parsed.error, registerIssue(f.password))
  const err = (k: keyof FormState) => server.fields[k] ?? (submitted || touched[k] ? issues[k] : undefined)
  const set = <K extends keyof FormState>(k: K, v: FormState[K]) => {
    setF((o) => ({ ...o, [k]: v }))
    server.reset()
  }
  const touch = (k: string) => setTouched((t) => ({ ...t, [k]: true }))

  const submit = async (e: React.FormEvent) => {
    e.preventDefault()
    setSubmitted(true)
    if (!parsed.success) {
      requestAnimationFrame(() =>
        document.querySelector<HTMLElement>('.register [aria-invalid="true"]')?.focus(),
      )
      return
    }
    const registered = await server.submit(() => register(parsed.data))
    if (!registered) return
    setResult(registered)
    setF((o) => ({ ...o, password: '' }))
    setSubmitted(false)
    setTouched({})
  }

  /** An ISO code typed in capitals, with the known codes offered as the user types. */
  const code = (
    k: 'country' | 'currency',
    label: string,
    hint: string,
    length: number,
    known: readonly { code: string; name: string }[],
  ) => (
    <Field label={label} error={err(k)} required hint={hint}>
      {(p) => (
        <>
          <input
            {...p}
            list={`${k}-codes`}
            className="input--code"
            value={f[k]}
            maxLength={length}
            onChange={(e) => set(k, e.target.value.toUpperCase())}
            onBlur={() => touch(k)}
          />
          <datalist id={`${k}-codes`}>
            {known.map((c) => (
              <option key={c.code} value={c.code} label={c.name} />
            ))}
          </datalist>
        </>
      )}
    </Field>
  )

  const text = (
    k: 'email' | 'firstname' | 'lastname' | 'business_name',
    label: string,
    type = 'text',
    autoComplete = 'off',
  ) => (
    <TextField
      label={label}
      error={err(k)}
      required
      value={f[k]}
      onChange={(text) => set(k, text)}
      input={{ type, autoComplete, onBlur: () => touch(k) }}
    />
  )

  if (result) return <Registered result={result} onAnother={() => setResult(null)} />

  return (
    <form className="card form register" onSubmit={submit} noValidate>
      <div className="form--grid">
        {text('business_name', intl.formatMessage(m.businessName))}
        {text('email', intl.formatMessage(m.email), 'email')}
        {text('firstname', intl.formatMessage(m.firstname))}
        {text('lastname', intl.formatMessage(m.lastname))}
        <Field
          label={intl.formatMessage(m.password)}
          error={err('password')}
          required
          hint={<PasswordRules password={f.password} id="pw-rules" />}
          className="span-2"
        >
          {(p) => (
            <div className="input-row">
              <input
                {...p}
                type={showPassword ? 'text' : 'password'}
                value={f.password}
                autoComplete="new-password"
                onChange={(e) => set('password', e.target.value)}
                onBlur={() => touch('password')}
              />
              <button
                type="button"
                className="btn"
                aria-pressed={showPassword}
                onClick={() => setShowPassword((v) => !v)}
              >
                {intl.formatMessage(showPassword ? m.hide : m.show)}
              </button>
            </div>
          )}
        </Field>
        {code('country', intl.formatMessage(m.country), intl.formatMessage(m.countryHint), 2, countries)}
        {code('currency', intl.formatMessage(m.currency), intl.formatMessage(m.currencyHint), 3, currencies)}
        <Field label={intl.formatMessage(m.timezone)} error={err('timezone')} required>
          {(p) => (
            <select {...p} value={f.timezone} onChange={(e) => set('timezone', e.target.value)}>
              <Options values={zones} />
            </select>
          )}
        </Field>
        <fieldset className="field span-2">
          <legend className="field__label">{intl.formatMessage(m.access)}</legend>
          <div className="radios">
            {GRANT_ACCESS.map((a) => (
              <label key={a} className="radio">
                <input
                  type="radio"
                  name="grant_access"
                  value={a}
                  checked={f.grant_access === a}
                  onChange={() => set('grant_access', a)}
                />
                {intl.formatMessage(ACCESS_TEXT[a])}
              </label>
            ))}
          </div>
          {err('grant_access') ? <div className="field__error">{err('grant_access')}</div> : null}
        </fieldset>
        <div className="span-2">
          <Check
            label={intl.formatMessage(m.partnerPays)}
            checked={f.credit_from_referral_partner}
            onChange={(c) => set('credit_from_referral_partner', c)}
            hint={intl.formatMessage(m.partnerPaysHint)}
          />
        </div>
      </div>
      <FormError message={formErrorLine(server, submitted && !parsed.success, FORM_LINES)} />
      <FormActions busy={server.busy} busyLabel={intl.formatMessage(m.registering)}>
        {intl.formatMessage(m.register)}
      </FormActions>
    </form>
  )
}

function Registered({ result, onAnother }: { result: Res<'registerBusiness'>; onAnother: () => void }) {
  const save = useApp((s) => s.saveRegisteredBusiness)
  const switchProfile = useApp((s) => s.switchProfile)
  const [name, setName] = useState(result.name)
  const { busy, error, submit, refuse } = useSubmit()
  const [savedId, setSavedId] = useState<string | null>(null)
  const [discarded, setDiscarded] = useState(false)
  const intl = useI18n()

  const discard = async () => {
    if (!result.registrationId) return
    const registrationId = result.registrationId
    if (await submit(() => settle(bookdrop.discardRegistration({ registrationId })))) setDiscarded(true)
  }

  const doSave = async (e: React.FormEvent) => {
    e.preventDefault()
    if (!result.registrationId) return
    if (!name.trim()) {
      refuse(intl.formatMessage(m.profileNameMissing))
      return
    }
    const registrationId = result.registrationId
    const saved = await submit(() =>
      save({ name: name.trim(), businessUuid: result.business_uuid, registrationId }),
    )
    if (saved) setSavedId(saved.profile.id)
  }

  return (
    <section className="card success-card" aria-labelledby="registered-title">
      <h2 id="registered-title" className="h3" tabIndex={-1}>
        {intl.formatMessage(m.registered, { name: result.name })}
      </h2>
      <dl className="facts">
        <div>
          <dt>{intl.formatMessage(m.businessId)}</dt>
          <dd className="mono">{result.business_uuid}</dd>
        </div>
        <div>
          <dt>{intl.formatMessage(m.currency)}</dt>
          <dd>{result.currency}</dd>
        </div>
        <div>
          <dt>{intl.formatMessage(m.country)}</dt>
          <dd>{result.country}</dd>
        </div>
        {result.api_public_key ? (
          <div>
            <dt>{intl.formatMessage(m.publicKey)}</dt>
            <dd className="mono">{result.api_public_key}</dd>
          </div>
        ) : null}
        {result.secretKeyHint ? (
          <div>
            <dt>{intl.formatMessage(m.secretKey)}</dt>
            <dd className="mono">svc_sk_…{result.secretKeyHint}</dd>
          </div>
        ) : null}
      </dl>
      {result.registrationId && !savedId && !discarded ? (
        <form className="inline-form" onSubmit={doSave} noValidate>
          <p className="muted">{intl.formatMessage(m.keyHeld)}</p>
          <Field label={intl.formatMessage(m.profileName)}>
            {(p) => <input {...p} value={name} onChange={(e) => setName(e.target.value)} />}
          </Field>
          <SubmitButton busy={busy} busyLabel={intl.formatMessage(m.saving)}>
            {intl.formatMessage(m.saveProfile)}
          </SubmitButton>
          <button type="button" className="btn" onClick={() => void discard()}>
            {intl.formatMessage(m.discard)}
          </button>
        </form>
      ) : null}
      {discarded ? (
        <p role="status">{intl.formatMessage(m.discarded)}</p>
      ) : null}
      {savedId ? (
        <p role="status">
          {intl.formatMessage(m.saved)}{' '}
          <button type="button" className="btn btn--small" onClick={() => void switchProfile(savedId)}>
            {intl.formatMessage(m.switchTo, { name })}
          </button>
        </p>
      ) : null}
      {!result.registrationId ? (
        <p className="muted">{intl.formatMessage(m.noKeys)}</p>
      ) : null}
      <FormError message={error} />
      <button type="button" className="btn" onClick={onAnother}>
        {intl.formatMessage(m.another)}
      </button>
    </section>
  )
}
