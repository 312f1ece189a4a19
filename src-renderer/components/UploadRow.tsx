import { defineMessages } from 'react-intl'
import { getIntl, useI18n } from '../lib/i18n'
import { codedOrText } from '../lib/coded'
import { formatBytes, uploadSize, uploadSizeTitle } from '../lib/format'
import { CANCELLABLE, RETRYABLE, SKIP_REASON_LABELS, TARGET_LABELS, retryLabel } from '../lib/labels'
import type { Upload } from '../lib/types'
import { useApp } from '../store'
import { type Progress, loadedUpload } from '../store/uploads'
import { StatusBadge } from './Badge'
import { ProgressBar } from './Progress'
import { DiscardButton, PossibleDuplicateNote } from './PossibleDuplicate'
import { RecordSummaryLink } from './RecordSummaryLink'
import messages from './UploadRow.messages.json' with { type: 'json' }

const m = defineMessages(messages.m)

/** Why a row is where it is, in words. */
export function uploadReason(u: Upload): string | null {
  // Main's stored sentence, worded in the language in use (rows stored before codes keep their text).
  if (u.lastError) return codedOrText(u.lastErrorCoded, u.lastError)
  if (u.reason) return SKIP_REASON_LABELS[u.reason] ?? u.reason
  if (u.status === 'duplicate') {
    // The other upload by its file name when this window knows it (never by its row number).
    const name = u.duplicateOf !== null ? loadedUpload(useApp.getState(), u.duplicateOf)?.name : null
    return name ? getIntl().formatMessage(m.alreadySentAs, { name }) : getIntl().formatMessage(m.alreadySent)
  }
  // A note of intake ("Sent although it looked unfinished: …").
  return u.note ?? null
}

export function UploadActions({ u, compact }: { u: Upload; compact?: boolean }) {
  const retry = useApp((s) => s.retryUpload)
  const cancel = useApp((s) => s.cancelUpload)
  const intl = useI18n()
  const cls = `btn btn--small${compact ? ' btn--ghost' : ''}`
  return (
    <span className="row-actions">
      {RETRYABLE.includes(u.status) ? (
        <button
          type="button"
          className={cls}
          onClick={() => void retry(u.id)}
          aria-label={intl.formatMessage(m.actionOn, { action: retryLabel(u.status), name: u.name })}
        >
          {retryLabel(u.status)}
        </button>
      ) : null}
      <DiscardButton u={u} className={cls} />
      {CANCELLABLE.includes(u.status) ? (
        <button
          type="button"
          className={cls}
          onClick={() => void cancel(u.id)}
          aria-label={intl.formatMessage(m.actionOn, { action: intl.formatMessage(m.cancel), name: u.name })}
        >
          {intl.formatMessage(m.cancel)}
        </button>
      ) : null}
    </span>
  )
}

/** One file of this session on the capture screen, with its own progress bar while it is sent. */
export function LiveUploadRow({ u, progress }: { u: Upload; progress: Progress | undefined }) {
  const intl = useI18n()
  const sending = u.status === 'uploading' || (progress && u.status === 'queued')
  // A completed row may still carry a note: the server did not report completion, the file could
  // not be moved afterwards, or it was sent although it looked unfinished.
  const reason =
    u.status === 'completed'
      ? u.lastError
        ? codedOrText(u.lastErrorCoded, u.lastError)
        : u.note
      : uploadReason(u)
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
            label={intl.formatMessage(m.sendingFile, { name: u.name })}
            value={progress?.sent ?? 0}
            max={progress?.total ?? u.size ?? 1}
            valueText={intl.formatMessage(m.bytesOf, {
              sent: formatBytes(progress?.sent ?? 0),
              total: formatBytes(progress?.total ?? u.size),
            })}
          />
        ) : null}
        <StatusBadge status={u.status} />
      </div>
      {u.status === 'completed' && u.recordUuid ? (
        <div className="upload-row__record">
          <RecordSummaryLink row={u} />
        </div>
      ) : null}
      {u.possibleDuplicate ? (
        <div className="upload-row__reason">
          <PossibleDuplicateNote d={u.possibleDuplicate} held={u.status === 'held'} />
        </div>
      ) : reason ? (
        <div className="upload-row__reason">{reason}</div>
      ) : null}
      <UploadActions u={u} compact />
    </li>
  )
}
