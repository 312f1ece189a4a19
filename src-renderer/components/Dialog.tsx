import { type ReactNode, useEffect, useId, useRef } from 'react'
import { createPortal } from 'react-dom'
import { COMMON } from '../lib/common-messages'
import { useI18n } from '../lib/i18n'
import { BusyButton } from './Field'

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])'

interface Props {
  title: string
  onClose: () => void
  children: ReactNode
  /** Buttons row at the bottom. */
  footer?: ReactNode
  /** Wider dialog for forms with tables. */
  wide?: boolean
  /** role="alertdialog" for confirmations. */
  alert?: boolean
  describedBy?: string
}

/** Open dialogs, innermost last. */
const stack: object[] = []

/**
 * A modal dialog, rendered at the end of <body> with the app behind it made inert: focus moves in
 * (to [data-autofocus] or the first field), Tab and Shift+Tab stay inside, Escape closes, and focus
 * goes back to where it was when the dialog closes.
 */
export function Dialog({ title, onClose, children, footer, wide, alert, describedBy }: Props) {
  const ref = useRef<HTMLDivElement>(null)
  const titleId = useId()
  const intl = useI18n()
  const onCloseRef = useRef(onClose)
  onCloseRef.current = onClose

  useEffect(() => {
    const before = document.activeElement as HTMLElement | null
    // Everything behind the dialog is out of reach (keyboard, pointer, screen reader) while it is open.
    const app = document.getElementById('root')
    const me = {}
    stack.push(me)
    app?.setAttribute('inert', '')
    // Escape also works when focus was lost to <body> (a focused button that went away).
    const onDocKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || stack[stack.length - 1] !== me) return
      if (ref.current?.contains(document.activeElement)) return
      e.preventDefault()
      onCloseRef.current()
    }
    document.addEventListener('keydown', onDocKey)
    const root = ref.current
    if (root) {
      const first =
        root.querySelector<HTMLElement>('[data-autofocus]') ?? root.querySelector<HTMLElement>(FOCUSABLE)
      ;(first ?? root).focus()
    }
    return () => {
      document.removeEventListener('keydown', onDocKey)
      stack.splice(stack.indexOf(me), 1)
      if (stack.length === 0) app?.removeAttribute('inert')
      if (before && document.contains(before)) before.focus()
    }
  }, [])

  const onKeyDown = (e: React.KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.stopPropagation()
      onCloseRef.current()
      return
    }
    if (e.key !== 'Tab' || !ref.current) return
    const items = [...ref.current.querySelectorAll<HTMLElement>(FOCUSABLE)]
    if (items.length === 0) {
      e.preventDefault()
      return
    }
    const first = items[0]!
    const last = items[items.length - 1]!
    if (e.shiftKey && (document.activeElement === first || document.activeElement === ref.current)) {
      e.preventDefault()
      last.focus()
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault()
      first.focus()
    }
  }

  return createPortal(
    <div className="modal-backdrop">
      <div
        ref={ref}
        className={`modal${wide ? ' modal--wide' : ''}`}
        role={alert ? 'alertdialog' : 'dialog'}
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={describedBy}
        tabIndex={-1}
        onKeyDown={onKeyDown}
      >
        <div className="modal__head">
          <h2 id={titleId}>{title}</h2>
          <button
            type="button"
            className="btn btn--ghost btn--icon"
            aria-label={intl.formatMessage(COMMON.close)}
            onClick={onClose}
          >
            ×
          </button>
        </div>
        <div className="modal__body">{children}</div>
        {footer ? <div className="modal__foot">{footer}</div> : null}
      </div>
    </div>,
    document.body,
  )
}

interface ConfirmProps {
  title: string
  message: ReactNode
  confirmLabel: string
  danger?: boolean
  busy?: boolean
  error?: string | null
  onConfirm: () => void
  onCancel: () => void
}

export function ConfirmDialog({
  title,
  message,
  confirmLabel,
  danger,
  busy,
  error,
  onConfirm,
  onCancel,
}: ConfirmProps) {
  const msgId = useId()
  return (
    <Dialog
      title={title}
      onClose={onCancel}
      alert
      describedBy={msgId}
      footer={
        <DialogActions
          onCancel={onCancel}
          cancelFirst
          onAction={onConfirm}
          label={confirmLabel}
          busy={busy}
          danger={danger}
        />
      }
    >
      <div id={msgId}>{message}</div>
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
    </Dialog>
  )
}

interface ActionsProps {
  onCancel: () => void
  /** Focus starts on Cancel (a confirmation), not on the dialog's first field. */
  cancelFirst?: boolean
  onAction: () => void
  /** The action's words, and its words while it runs. */
  label: string
  busyLabel?: string
  busy?: boolean | undefined
  /** Not yet possible (the form does not pass its check). */
  disabled?: boolean
  danger?: boolean | undefined
}

/** A dialog's footer: Cancel, then the dialog's one action. */
export function DialogActions({
  onCancel,
  cancelFirst,
  onAction,
  label,
  busyLabel,
  busy,
  disabled,
  danger,
}: ActionsProps) {
  const intl = useI18n()
  return (
    <>
      <button type="button" className="btn" onClick={onCancel} data-autofocus={cancelFirst || undefined}>
        {intl.formatMessage(COMMON.cancel)}
      </button>
      <BusyButton
        className={`btn ${danger ? 'btn--danger' : 'btn--primary'}`}
        onClick={onAction}
        busy={Boolean(busy)}
        busyLabel={busyLabel ?? intl.formatMessage(COMMON.working)}
        disabled={disabled}
      >
        {label}
      </BusyButton>
    </>
  )
}

/** A dialog whose footer is Cancel (which closes it) and one action. */
export function ActionDialog({
  title,
  onClose,
  wide,
  children,
  ...action
}: Omit<ActionsProps, 'onCancel' | 'cancelFirst'> & {
  title: string
  onClose: () => void
  wide?: boolean
  children: ReactNode
}) {
  return (
    <Dialog
      title={title}
      onClose={onClose}
      wide={wide}
      footer={<DialogActions onCancel={onClose} {...action} />}
    >
      {children}
    </Dialog>
  )
}
