import { useMemo, useState } from 'react'
import { GRANT_ACCESS, PASSWORD_RULES, issuesByField, registerBusinessSchema } from '../../../contract/api'
import { Check, Field, FormError, Options, SubmitButton, TextField } from '../../components/Field'
import { Screen } from '../../components/Screen'
import { countryOptions, currencyOptions, localTimeZone, timeZones } from '../../lib/iso'
import type { Res } from '../../lib/types'
import { bookdrop } from '../../lib/bridge'
import { settle } from '../../lib/result'
import { useApp } from '../../store'
import { type FormLines, formErrorLine, useSubmit } from '../../lib/useSubmit'

/** What the form's error line says. */
const FORM_LINES: FormLines = {
  refused: 'The business was not registered',
  invalid: 'Some fields need attention.',
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

const ACCESS_TEXT: Record<Access, string> = {
  admin: 'Admin: you manage the business fully, and receive its API keys now (to save as a profile).',
  editor: 'Editor: you can record and change entries.',
  viewer: 'Viewer: you can only look.',
}

export function Register() {
  return (
    <Screen
      title="Register a business"
      intro="Create a business account for a client. It is listed under your referred businesses."
    >
      <RegisterForm />
    </Screen>
  )
}

/** The password rule of the API, ticked part by part as the user types. */
export function PasswordRules({ password, id }: { password: string; id: string }) {
  return (
    <ul className="rules" id={id} aria-label="Password rules">
      {PASSWORD_RULES.map((r) => {
        const ok = r.test(password)
        return (
          <li key={r.id} className={ok ? 'rules__ok' : 'rules__no'} data-rule={r.id} data-ok={ok}>
            <span aria-hidden="true">{ok ? '✓' : '○'}</span> {r.text}
            <span className="sr-only">{ok ? ': done' : ': missing'}</span>
          </li>
        )
      })}
    </ul>
  )
}

export function RegisterForm() {
  const register = useApp((s) => s.registerBusiness)
  const zones = useMemo(timeZones, [])
  const countries = useMemo(countryOptions, [])
  const currencies = useMemo(currencyOptions, [])
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
  const issues = parsed.success ? {} : issuesByField(parsed.error)
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
        {text('business_name', 'Business name')}
        {text('email', 'Owner’s email', 'email')}
        {text('firstname', 'Owner’s first name')}
        {text('lastname', 'Owner’s last name')}
        <Field
          label="Password"
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
                {showPassword ? 'Hide' : 'Show'}
              </button>
            </div>
          )}
        </Field>
        {code('country', 'Country', 'Two-letter ISO code, e.g. NG.', 2, countries)}
        {code('currency', 'Currency', 'Three-letter ISO code, e.g. NGN.', 3, currencies)}
        <Field label="Time zone" error={err('timezone')} required>
          {(p) => (
            <select {...p} value={f.timezone} onChange={(e) => set('timezone', e.target.value)}>
              <Options values={zones} />
            </select>
          )}
        </Field>
        <fieldset className="field span-2">
          <legend className="field__label">Your access to the business</legend>
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
                {ACCESS_TEXT[a]}
              </label>
            ))}
          </div>
          {err('grant_access') ? <div className="field__error">{err('grant_access')}</div> : null}
        </fieldset>
        <div className="span-2">
          <Check
            label="Pay for this business’s AI use from my partner credit"
            checked={f.credit_from_referral_partner}
            onChange={(c) => set('credit_from_referral_partner', c)}
            hint="The business's AI credit use is charged to your partner credit, and you manage that credit. Such a business cannot receive partner seats later."
          />
        </div>
      </div>
      <FormError message={formErrorLine(server, submitted && !parsed.success, FORM_LINES)} />
      <div className="form__actions">
        <SubmitButton busy={server.busy} busyLabel="Registering…">
          Register business
        </SubmitButton>
      </div>
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

  const discard = async () => {
    if (!result.registrationId) return
    const registrationId = result.registrationId
    if (await submit(() => settle(bookdrop.discardRegistration({ registrationId })))) setDiscarded(true)
  }

  const doSave = async (e: React.FormEvent) => {
    e.preventDefault()
    if (!result.registrationId) return
    if (!name.trim()) {
      refuse('Give the profile a name.')
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
        {result.name} is registered
      </h2>
      <dl className="facts">
        <div>
          <dt>Business uuid</dt>
          <dd className="mono">{result.business_uuid}</dd>
        </div>
        <div>
          <dt>Currency</dt>
          <dd>{result.currency}</dd>
        </div>
        <div>
          <dt>Country</dt>
          <dd>{result.country}</dd>
        </div>
        {result.api_public_key ? (
          <div>
            <dt>Public key</dt>
            <dd className="mono">{result.api_public_key}</dd>
          </div>
        ) : null}
        {result.secretKeyHint ? (
          <div>
            <dt>Secret key</dt>
            <dd className="mono">svc_sk_…{result.secretKeyHint}</dd>
          </div>
        ) : null}
      </dl>
      {result.registrationId && !savedId && !discarded ? (
        <form className="inline-form" onSubmit={doSave} noValidate>
          <p className="muted">
            The secret key is held by Bookdrop until you save it: it goes to the system keychain and is never
            shown in full.
          </p>
          <Field label="Profile name">
            {(p) => <input {...p} value={name} onChange={(e) => setName(e.target.value)} />}
          </Field>
          <SubmitButton busy={busy} busyLabel="Saving…">
            Save as a profile
          </SubmitButton>
          <button type="button" className="btn" onClick={() => void discard()}>
            Discard the keys
          </button>
        </form>
      ) : null}
      {discarded ? (
        <p role="status">
          The keys were discarded: nothing was saved. The owner can create new keys in the application.
        </p>
      ) : null}
      {savedId ? (
        <p role="status">
          Saved as a profile.{' '}
          <button type="button" className="btn btn--small" onClick={() => void switchProfile(savedId)}>
            Switch to {name}
          </button>
        </p>
      ) : null}
      {!result.registrationId ? (
        <p className="muted">
          Without admin access no keys are returned; the owner creates them in the application.
        </p>
      ) : null}
      <FormError message={error} />
      <button type="button" className="btn" onClick={onAnother}>
        Register another business
      </button>
    </section>
  )
}
