import { defineMessages } from 'react-intl'
import type { UploadView } from '../../contract'
import { useI18n } from '../lib/i18n'
import { recordLine } from '../lib/record-line'
import { useApp } from '../store'
import messages from './RecordSummaryLink.messages.json' with { type: 'json' }

const m = defineMessages(messages.m)

/**
 * What a completed upload became, as a link to it on Review: "Flour Mills · 3 Mar 2026 ·
 * ₦12,400.00" (or "Open in Review" until the record is read). Nothing for a row without a record.
 */
export function RecordSummaryLink({ row }: { row: Pick<UploadView, 'recordUuid' | 'record' | 'recordCount'> }) {
  const intl = useI18n()
  const openReview = useApp((s) => s.openReview)
  const uuid = row.record?.uuid ?? row.recordUuid
  if (!uuid) return null
  const line = row.record ? recordLine(intl, row.record, row.recordCount) : null
  return (
    <button
      type="button"
      className="linklike record-link"
      // The whole of it on hover, whenever the column cuts it (issue 26).
      title={line ? intl.formatMessage(m.openTitle, { line }) : intl.formatMessage(m.open)}
      onClick={() => openReview(uuid, 'all')}
    >
      <span className="ellipsis" dir="auto">
        {line ?? intl.formatMessage(m.open)}
      </span>
      {row.record?.deletedOnServer ? <span className="muted"> ({intl.formatMessage(m.deleted)})</span> : null}
    </button>
  )
}
