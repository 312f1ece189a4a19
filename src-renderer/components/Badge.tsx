import { STATUS_LABELS, STATUS_TONE } from '../lib/labels'
import type { UploadStatus } from '../lib/types'

export function StatusBadge({ status }: { status: UploadStatus }) {
  return <span className={`badge badge--${STATUS_TONE[status]}`}>{STATUS_LABELS[status]}</span>
}

/** A badge's colour, by what it says. */
export type Tone = 'neutral' | 'busy' | 'good' | 'warn' | 'bad'

export function Badge({ tone, children }: { tone: Tone; children: React.ReactNode }) {
  return <span className={`badge badge--${tone}`}>{children}</span>
}
