import { useEffect } from 'react'
import { defineMessages } from 'react-intl'
import { useI18n } from '../lib/i18n'
import { useApp } from '../store'
import type { Toast } from '../store/ui'
import messages from './Toasts.messages.json' with { type: 'json' }

const m = defineMessages(messages.m)

const LIFETIME: Record<Toast['kind'], number> = { info: 6000, success: 6000, warning: 10000, error: 15000 }

function ToastItem({ toast }: { toast: Toast }) {
  const dismiss = useApp((s) => s.dismissToast)
  const intl = useI18n()
  useEffect(() => {
    const t = setTimeout(() => dismiss(toast.id), LIFETIME[toast.kind])
    return () => clearTimeout(t)
  }, [toast.id, toast.kind, dismiss])
  return (
    <div className={`toast toast--${toast.kind}`}>
      <span className="toast__text">{toast.message}</span>
      <button
        type="button"
        className="btn btn--ghost btn--icon"
        aria-label={intl.formatMessage(m.dismiss)}
        onClick={() => dismiss(toast.id)}
      >
        ×
      </button>
    </div>
  )
}

/** Messages for everyone: polite ones for news, assertive ones for problems. */
export function Toasts() {
  const toasts = useApp((s) => s.toasts)
  const calm = toasts.filter((t) => t.kind === 'info' || t.kind === 'success')
  const urgent = toasts.filter((t) => t.kind === 'warning' || t.kind === 'error')
  return (
    <div className="toasts">
      <div role="status" aria-live="polite" aria-atomic="false">
        {calm.map((t) => (
          <ToastItem key={t.id} toast={t} />
        ))}
      </div>
      <div role="alert" aria-live="assertive" aria-atomic="false">
        {urgent.map((t) => (
          <ToastItem key={t.id} toast={t} />
        ))}
      </div>
    </div>
  )
}
