import { type ButtonHTMLAttributes, type InputHTMLAttributes, type ReactNode, useId } from 'react'
import { COMMON, TARGET_MESSAGES } from '../lib/common-messages'
import { useI18n } from '../lib/i18n'
import { TARGETS } from '../lib/labels'

/** The attributes a field's control takes from its Field: its id, what describes it and whether it is invalid. */
export interface FieldControl {
  id: string
  'aria-describedby': string | undefined
  'aria-invalid': boolean
}

interface FieldProps {
  label: ReactNode
  /** Shown under the input; linked with aria-describedby. */
  hint?: ReactNode
  error?: string | null | undefined
  /** Renders the control: spread `control` onto it (<input {...control} />) for its id and ARIA wiring. */
  children: (control: FieldControl) => ReactNode
  className?: string
  required?: boolean
}

/** A label, a control, a hint and an error message, wired together for screen readers. */
export function Field({ label, hint, error, children, className, required }: FieldProps) {
  const id = useId()
  const hintId = `${id}-hint`
  const errId = `${id}-err`
  const describedBy = [hint ? hintId : null, error ? errId : null].filter(Boolean).join(' ') || undefined
  const intl = useI18n()
  return (
    <div className={`field${error ? ' field--invalid' : ''}${className ? ` ${className}` : ''}`}>
      <label htmlFor={id} className="field__label">
        {label}
        {required ? <span className="field__req"> {intl.formatMessage(COMMON.required)}</span> : null}
      </label>
      {children({ id, 'aria-describedby': describedBy, 'aria-invalid': Boolean(error) })}
      {hint ? (
        <div id={hintId} className="field__hint">
          {hint}
        </div>
      ) : null}
      {error ? (
        <div id={errId} className="field__error">
          {error}
        </div>
      ) : null}
    </div>
  )
}

interface CheckProps {
  label: ReactNode
  checked: boolean
  onChange: (checked: boolean) => void
  hint?: ReactNode
  disabled?: boolean
}

export function Check({ label, checked, onChange, hint, disabled }: CheckProps) {
  const id = useId()
  return (
    <div className="check">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        disabled={disabled}
        onChange={(e) => onChange(e.target.checked)}
        aria-describedby={hint ? `${id}-hint` : undefined}
      />
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <div id={`${id}-hint`} className="field__hint check__hint">
          {hint}
        </div>
      ) : null}
    </div>
  )
}

export function FormError({ message }: { message: string | null | undefined }) {
  if (!message) return null
  return (
    <p className="form-error" role="alert">
      {message}
    </p>
  )
}

interface SubmitProps {
  busy: boolean
  /** The button's words while the form sends. */
  busyLabel: string
  children: ReactNode
}

type BusyButtonProps = Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'disabled'> & {
  /** Working: says so (aria-busy, its busy words) and does nothing when pressed, but keeps focus. */
  busy: boolean
  busyLabel?: ReactNode
  /** Not available at all (nothing to act on): a real `disabled`. */
  disabled?: boolean
}

/**
 * A button that works for a while after it is pressed. While busy it stays focusable (a disabled
 * button would drop keyboard focus to the page, issue 26): aria-busy and aria-disabled say it is
 * working, and a press (or a form's Enter) does nothing.
 */
export function BusyButton({
  busy,
  busyLabel,
  disabled,
  onClick,
  className = 'btn',
  type = 'button',
  children,
  ...rest
}: BusyButtonProps) {
  return (
    <button
      {...rest}
      type={type}
      className={className}
      disabled={disabled}
      aria-busy={busy || undefined}
      aria-disabled={busy || undefined}
      onClick={(e) => {
        if (busy) {
          e.preventDefault()
          return
        }
        onClick?.(e)
      }}
    >
      {busy && busyLabel !== undefined ? busyLabel : children}
    </button>
  )
}

/** A form's send button: busy (its busy words, aria-busy, focus kept) while the form sends. */
export function SubmitButton({ busy, busyLabel, children }: SubmitProps) {
  return (
    <BusyButton type="submit" className="btn btn--primary" busy={busy} busyLabel={busyLabel}>
      {children}
    </BusyButton>
  )
}

/** A form's row of buttons: Cancel where the form can be left without sending, then send. */
export function FormActions({ onCancel, ...submit }: SubmitProps & { onCancel?: (() => void) | undefined }) {
  const intl = useI18n()
  return (
    <div className="form__actions">
      {onCancel ? (
        <button type="button" className="btn" onClick={onCancel}>
          {intl.formatMessage(COMMON.cancel)}
        </button>
      ) : null}
      <SubmitButton {...submit} />
    </div>
  )
}

/** What a field shows around its control: Field's props but the control. */
type FieldFrame = Omit<FieldProps, 'children'>

/** A text control's value, and what to do with the text when it changes. */
interface TextValue {
  value: string
  onChange: (value: string) => void
}

/** The input's own attributes (its type, limits, handlers, data-*): all but those TextField sets. */
type InputAttributes = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'value' | 'onChange'> & {
  [data: `data-${string}`]: string | boolean | undefined
}

interface TextFieldProps extends FieldFrame, TextValue {
  input?: InputAttributes
}

/** A one-line field: a label, an input of the text in `value`, its hint and its error. */
export function TextField({ value, onChange, input, ...field }: TextFieldProps) {
  return (
    <Field {...field}>
      {(p) => <input {...p} {...input} value={value} onChange={(e) => onChange(e.target.value)} />}
    </Field>
  )
}

interface SecretProps extends FieldFrame, TextValue {
  /** Enter in the field (a dialog with no form of its own). */
  onEnter?: () => void
  autoFocus?: boolean
}

/** A secret key's field: hidden as typed, not remembered nor spell-checked. */
export function SecretField({ onEnter, autoFocus, ...field }: SecretProps) {
  const input: InputAttributes = {
    type: 'password',
    autoComplete: 'off',
    spellCheck: false,
    'data-autofocus': autoFocus || undefined,
  }
  if (onEnter)
    input.onKeyDown = (e) => {
      if (e.key === 'Enter') onEnter()
    }
  return <TextField {...field} input={input} />
}

interface TextAreaProps extends FieldFrame, TextValue {
  rows: number
  maxLength?: number
  placeholder?: string
}

/** A field of a few lines of text (instructions, a description). */
export function TextAreaField({ value, onChange, rows, maxLength, placeholder, ...field }: TextAreaProps) {
  return (
    <Field {...field}>
      {(p) => (
        <textarea
          {...p}
          aria-required={field.required ? 'true' : undefined}
          rows={rows}
          maxLength={maxLength}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          placeholder={placeholder}
        />
      )}
    </Field>
  )
}

interface SearchProps extends FieldFrame, TextValue {
  placeholder?: string
  /** Says the "/" shortcut (which focuses this field) to screen readers. */
  sayShortcut?: boolean
}

/** A screen's search box: the one "/" focuses (App's shortcut looks for data-shortcut="search"). */
export function SearchField({ placeholder, sayShortcut, ...field }: SearchProps) {
  const input: InputAttributes = {
    type: 'search',
    'data-shortcut': 'search',
    'aria-keyshortcuts': sayShortcut ? '/' : undefined,
    placeholder,
  }
  return <TextField {...field} input={input} />
}

interface DateProps extends FieldFrame, TextValue {
  /** The earliest and latest dates it takes ("" or none: no limit). */
  min?: string
  max?: string
}

/** A date, as the browser's date picker gives it (yyyy-mm-dd). */
export function DateField({ min, max, ...field }: DateProps) {
  return <TextField {...field} input={{ type: 'date', min: min || undefined, max: max || undefined }} />
}

/** A select's options: one per value, shown as `label` gives it (the value itself by default). */
export function Options<V extends string | number>({
  values,
  label = String,
}: {
  values: readonly V[]
  label?: (value: V) => ReactNode
}) {
  return values.map((v) => (
    <option key={v} value={v}>
      {label(v)}
    </option>
  ))
}

/** The options of a "Send as" select: every target, by its name. */
export function TargetOptions() {
  const intl = useI18n()
  return <Options values={TARGETS} label={(t) => intl.formatMessage(TARGET_MESSAGES[t])} />
}

interface ChoiceProps<V extends string> {
  legend: string
  /** The radio group's name. */
  name: string
  /** Each choice: its value and its words. */
  choices: readonly (readonly [V, ReactNode])[]
  value: V
  onChange: (value: V) => void
  error?: string | null | undefined
  className?: string
}

/** One of a few choices, as a row of radio buttons under a legend. */
export function Choice<V extends string>({
  legend,
  name,
  choices,
  value,
  onChange,
  error,
  className,
}: ChoiceProps<V>) {
  return (
    <fieldset className={`field${className ? ` ${className}` : ''}`}>
      <legend className="field__label">{legend}</legend>
      <div className="segmented">
        {choices.map(([v, words]) => (
          <label key={v} className="segmented__item">
            <input type="radio" name={name} value={v} checked={value === v} onChange={() => onChange(v)} />
            {words}
          </label>
        ))}
      </div>
      {error ? <div className="field__error">{error}</div> : null}
    </fieldset>
  )
}
