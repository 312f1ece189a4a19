import { defineMessages } from 'react-intl'
import { getIntl, useI18n } from '../../lib/i18n'
import { memo } from 'react'
import { StatusBadge } from '../../components/Badge'
import { uploadReason } from '../../components/UploadRow'
import {
  formatCompactDateTime,
  formatWholeDateTime,
  isoOf,
  uploadSize,
  uploadSizeTitle,
} from '../../lib/format'
import { SOURCE_LABELS, STATUS_LABELS, TARGET_LABELS } from '../../lib/labels'
import type { Upload } from '../../lib/types'
import { ROW_HEIGHT, colClass } from './columns'
import { RowActions } from './RowActions'
import { RecordSummaryLink } from '../../components/RecordSummaryLink'
import { PossibleDuplicateNote } from '../../components/PossibleDuplicate'
import messages from './HistoryRow.messages.json' with { type: 'json' }

const m = defineMessages(messages.m)

/** Where the row's file is, or that its local copy in the data folder was removed (issue 31). */
const pathText = (row: Upload) => (row.localCopyRemoved ? getIntl().formatMessage(m.copyRemoved) : row.path)

/**
 * The focused row in full, under the table: its whole file name and path, and what narrower tables
 * do not show (target, details). Keyboard users get what hovering gives a mouse.
 */
export function FocusedRowDetails({ row }: { row: Upload | undefined }) {
  const intl = useI18n()
  if (!row) return <p className="history__focused muted small">&nbsp;</p>
  const reason = row.status === 'completed' ? null : uploadReason(row)
  return (
    <p className="history__focused small">
      <strong>
        <bdi>{row.name}</bdi>
      </strong>{' '}
      <span className="muted">
        <bdi>{pathText(row)}</bdi>
      </span>{' '}
      · {intl.formatMessage(m.addedAt, { date: formatWholeDateTime(row.createdAt) })} · {sourceText(row)} ·{' '}
      {TARGET_LABELS[row.target]} · {STATUS_LABELS[row.status]}
      {reason ? ` · ${reason}` : ''}
      {row.recordUuid ? ` · ${intl.formatMessage(m.recordId, { id: row.recordUuid })}` : ''}
    </p>
  )
}

/** One upload in the table, or its place while it loads. */
export const HistoryRow = memo(function HistoryRow({
  index,
  start,
  row,
  tabbable,
  onFocusRow,
}: {
  index: number
  start: number
  row: Upload | undefined
  tabbable: boolean
  onFocusRow: (i: number) => void
}) {
  const intl = useI18n()
  // A row's place in the table, whether it is loaded yet or not.
  const place = {
    role: 'row',
    'aria-rowindex': index + 2,
    style: { transform: `translateY(${start}px)`, height: ROW_HEIGHT },
    'data-row': index,
    tabIndex: tabbable ? 0 : -1,
  }
  if (!row) {
    return (
      <div {...place} className="vtable__row vtable__row--loading">
        <div role="cell" className="vtable__cell muted">
          {intl.formatMessage(m.loading)}
        </div>
      </div>
    )
  }
  const reason = row.status === 'completed' ? null : uploadReason(row)
  return (
    <div
      {...place}
      className="vtable__row"
      onFocus={(e) => {
        if (e.target === e.currentTarget) onFocusRow(index)
      }}
    >
      <div role="cell" className="vtable__cell nowrap">
        <time dateTime={isoOf(row.createdAt)} title={formatWholeDateTime(row.createdAt)}>
          {formatCompactDateTime(row.createdAt)}
        </time>
      </div>
      <div role="cell" className="vtable__cell" title={pathText(row)}>
        <span className="ellipsis" dir="auto">
          {row.name}
        </span>{' '}
        <span className="muted small nowrap" title={uploadSizeTitle(row)}>
          {uploadSize(row)}
        </span>
      </div>
      <div role="cell" className={colClass(3)} title={sourceText(row)}>
        <span className="ellipsis">
          {row.source === 'mail' && row.mailSubject !== null ? (
            <>
              <span className="muted">{intl.formatMessage(m.mailLabel)}</span> <bdi>{row.mailSubject}</bdi>
              <span className="muted">
                {' '}
                · <bdi>{row.mailFrom}</bdi>
              </span>
            </>
          ) : (
            SOURCE_LABELS[row.source]
          )}
        </span>
      </div>
      <div role="cell" className={colClass(3)} title={TARGET_LABELS[row.target]}>
        <span className="ellipsis">{TARGET_LABELS[row.target]}</span>
      </div>
      <div
        role="cell"
        className="vtable__cell"
        title={
          reason
            ? intl.formatMessage(m.statusWhy, { status: STATUS_LABELS[row.status], reason })
            : STATUS_LABELS[row.status]
        }
      >
        <StatusBadge status={row.status} />
      </div>
      <div role="cell" className={colClass(2)} title={reason ?? undefined}>
        {row.possibleDuplicate ? (
          <span className="ellipsis muted">
            <PossibleDuplicateNote d={row.possibleDuplicate} held={row.status === 'held'} />
          </span>
        ) : row.status === 'completed' && row.recordUuid && !reason ? (
          <RecordSummaryLink row={row} />
        ) : (
          <span className="ellipsis muted">
            {reason ?? (row.movedTo ? intl.formatMessage(m.movedTo, { path: row.movedTo }) : '')}
          </span>
        )}
      </div>
      <div role="cell" className="vtable__cell vtable__cell--actions">
        <RowActions row={row} />
      </div>
    </div>
  )
})

/** Where a row's file came from, in words: a mail's subject and sender, else the source's name. */
function sourceText(row: Upload): string {
  if (row.source === 'mail' && row.mailSubject !== null)
    return row.mailFrom !== null
      ? getIntl().formatMessage(m.mailFrom, { subject: row.mailSubject, from: row.mailFrom })
      : getIntl().formatMessage(m.mailUnknown, { subject: row.mailSubject })
  return SOURCE_LABELS[row.source]
}
