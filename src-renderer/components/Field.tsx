import { type ReactNode, useId } from 'react'

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
