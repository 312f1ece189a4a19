import { STATUS_LABELS, STATUS_TONE } from '../lib/labels'
import type { UploadStatus } from '../lib/types'

export function StatusBadge({ status }: { status: UploadStatus }) {
  return <span className={`badge badge--${STATUS_TONE[status]}`}>{STATUS_LABELS[status]}</span>
}

export function Badge({
  tone,
  children,
}: {
  tone: 'neutral' | 'busy' | 'good' | 'warn' | 'bad'
  children: React.ReactNode
}) {
  return <span className={`badge badge--${tone}`}>{children}</span>
}
