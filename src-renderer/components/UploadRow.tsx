import { formatBytes, uploadSize, uploadSizeTitle } from '../lib/format'
import { CANCELLABLE, RETRYABLE, SKIP_REASON_LABELS, TARGET_LABELS, retryLabel } from '../lib/labels'
import type { Upload } from '../lib/types'
import { useApp } from '../store'
import type { Progress } from '../store/uploads'
import { StatusBadge } from './Badge'
import { ProgressBar } from './Progress'
import { RecordSummaryLink } from './RecordSummaryLink'

/** Why a row is where it is, in words. */
export function uploadReason(u: Upload): string | null {
  if (u.lastError) return u.lastError
  if (u.reason) return SKIP_REASON_LABELS[u.reason] ?? u.reason
  if (u.status === 'duplicate')
    return `Already sent${u.duplicateOf ? ` (upload #${u.duplicateOf})` : ''}: the same file was uploaded before.`
  // A note of intake ("Sent although it looked unfinished: …").
  return u.note ?? null
}

export function UploadActions({ u, compact }: { u: Upload; compact?: boolean }) {
  const retry = useApp((s) => s.retryUpload)
  const cancel = useApp((s) => s.cancelUpload)
  const cls = `btn btn--small${compact ? ' btn--ghost' : ''}`
  return (
    <span className="row-actions">
      {RETRYABLE.includes(u.status) ? (
        <button
          type="button"
          className={cls}
          onClick={() => void retry(u.id)}
          aria-label={`${retryLabel(u.status)}: ${u.name}`}
        >
          {retryLabel(u.status)}
        </button>
      ) : null}
      {CANCELLABLE.includes(u.status) ? (
        <button
          type="button"
          className={cls}
          onClick={() => void cancel(u.id)}
          aria-label={`Cancel: ${u.name}`}
        >
          Cancel
        </button>
      ) : null}
    </span>
  )
}

/** One file of this session on the capture screen, with its own progress bar while it is sent. */
export function LiveUploadRow({ u, progress }: { u: Upload; progress: Progress | undefined }) {
  const sending = u.status === 'uploading' || (progress && u.status === 'queued')
  // A completed row may still carry a note: the server did not report completion, the file could
  // not be moved afterwards, or it was sent although it looked unfinished.
  const reason = u.status === 'completed' ? (u.lastError ?? u.note) : uploadReason(u)
  return (
    <li className="upload-row">
      <div className="upload-row__main">
        <span className="upload-row__name" title={u.path} dir="auto">
          {u.name}
        </span>
        <span className="muted upload-row__meta" title={uploadSizeTitle(u)}>
          {TARGET_LABELS[u.target]} · {uploadSize(u)}
        </span>
      </div>
      <div className="upload-row__state">
        {sending ? (
          <ProgressBar
            small
            label={`Sending ${u.name}`}
            value={progress?.sent ?? 0}
            max={progress?.total ?? u.size ?? 1}
            valueText={`${formatBytes(progress?.sent ?? 0)} of ${formatBytes(progress?.total ?? u.size)}`}
          />
        ) : null}
        <StatusBadge status={u.status} />
      </div>
      {u.status === 'completed' && u.recordUuid ? (
        <div className="upload-row__record">
          <RecordSummaryLink row={u} />
        </div>
      ) : null}
      {reason ? <div className="upload-row__reason">{reason}</div> : null}
      <UploadActions u={u} compact />
    </li>
  )
}
