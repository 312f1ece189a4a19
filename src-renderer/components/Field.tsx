import { type ReactNode, useId } from 'react'
import { TARGETS, TARGET_LABELS } from '../lib/labels'

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
  return (
    <div className={`field${error ? ' field--invalid' : ''}${className ? ` ${className}` : ''}`}>
      <label htmlFor={id} className="field__label">
        {label}
        {required ? <span className="field__req"> (required)</span> : null}
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

/** A form's send button: disabled, with its busy words, while the form sends. */
export function SubmitButton({ busy, busyLabel, children }: SubmitProps) {
  return (
    <button type="submit" className="btn btn--primary" disabled={busy}>
      {busy ? busyLabel : children}
    </button>
  )
}

/** A form's row of buttons: Cancel where the form can be left without sending, then send. */
export function FormActions({ onCancel, ...submit }: SubmitProps & { onCancel?: (() => void) | undefined }) {
  return (
    <div className="form__actions">
      {onCancel ? (
        <button type="button" className="btn" onClick={onCancel}>
          Cancel
        </button>
      ) : null}
      <SubmitButton {...submit} />
    </div>
  )
}

interface SecretProps {
  label: string
  error: string | null | undefined
  hint?: ReactNode
  value: string
  onChange: (value: string) => void
  /** Enter in the field (a dialog with no form of its own). */
  onEnter?: () => void
  autoFocus?: boolean
}

/** A secret key's field: hidden as typed, not remembered nor spell-checked. */
export function SecretField({ label, error, hint, value, onChange, onEnter, autoFocus }: SecretProps) {
  return (
    <Field label={label} error={error} hint={hint}>
      {(p) => (
        <input
          {...p}
          type="password"
          value={value}
          onChange={(e) => onChange(e.target.value)}
          onKeyDown={
            onEnter
              ? (e) => {
                  if (e.key === 'Enter') onEnter()
                }
              : undefined
          }
          autoComplete="off"
          spellCheck={false}
          data-autofocus={autoFocus || undefined}
        />
      )}
    </Field>
  )
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
  return <Options values={TARGETS} label={(t) => TARGET_LABELS[t]} />
}

interface TextAreaProps {
  label: ReactNode
  hint?: ReactNode
  error?: string | null | undefined
  required?: boolean
  className?: string
  value: string
  onChange: (value: string) => void
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

interface SearchProps {
  label: string
  value: string
  onChange: (value: string) => void
  placeholder?: string
  className?: string
  /** Says the "/" shortcut (which focuses this field) to screen readers. */
  sayShortcut?: boolean
}

/** A screen's search box: the one "/" focuses (App's shortcut looks for data-shortcut="search"). */
export function SearchField({ label, value, onChange, placeholder, className, sayShortcut }: SearchProps) {
  return (
    <Field label={label} className={className}>
      {(p) => (
        <input
          {...p}
          type="search"
          data-shortcut="search"
          aria-keyshortcuts={sayShortcut ? '/' : undefined}
          placeholder={placeholder}
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </Field>
  )
}
