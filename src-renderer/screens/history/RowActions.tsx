import { defineMessages } from 'react-intl'
import { useI18n } from '../../lib/i18n'
import { RowMenu, type RowMenuItem } from '../../components/RowMenu'
import { bookdrop } from '../../lib/bridge'
import { CANCELLABLE, RETRYABLE, retryLabel } from '../../lib/labels'
import { settle } from '../../lib/result'
import type { Upload } from '../../lib/types'
import { useApp } from '../../store'
import { useShallow } from 'zustand/react/shallow'
import { discardWords } from '../../components/PossibleDuplicate'
import messages from './RowActions.messages.json' with { type: 'json' }

const m = defineMessages(messages.m)

/** What a row's record offers: an invoice opens on the Invoices screen; every record opens on Review. */
function useRecordAction() {
  const [openInvoice, setScreen, openReview] = useApp(
    useShallow((s) => [s.openInvoice, s.setScreen, s.openReview] as const),
  )
  return {
    open: (uuid: string) => {
      void openInvoice(uuid)
      setScreen('invoices')
    },
    review: (uuid: string) => openReview(uuid, 'all'),
  }
}

/** A row's retry button (when it can be tried again) and its menu. */
export function RowActions({ row }: { row: Upload }) {
  const [retry, cancel, discard] = useApp(useShallow((s) => [s.retryUpload, s.cancelUpload, s.discardUpload] as const))
  const intl = useI18n()
  const toast = useApp((s) => s.toast)
  const record = useRecordAction()
  const show = async () => {
    const r = await settle(bookdrop.showSourceFile({ id: row.id }))
    if (!r.ok) toast('error', r.error.message)
    else if (!r.value.shown) toast('info', intl.formatMessage(m.fileAt, { path: r.value.path }))
  }
  // One primary action as a button (the one a person most likely wants); the rest in the row's menu,
  // the record's action included (its column gives way on narrow tables).
  const items: RowMenuItem[] = []
  if (CANCELLABLE.includes(row.status))
    items.push({ label: intl.formatMessage(m.cancel), onSelect: () => void cancel(row.id) })
  // A held possible duplicate (issue 33): Send anyway is the button, Discard the first item.
  if (row.status === 'held') items.push({ label: discardWords(intl), onSelect: () => void discard(row.id) })
  items.push({ label: intl.formatMessage(m.showFile), onSelect: () => void show() })
  const uuid = row.recordUuid
  if (uuid) {
    items.push({ label: intl.formatMessage(m.openReview), onSelect: () => record.review(uuid) })
    if (isInvoiceRecord(row))
      items.push({ label: intl.formatMessage(m.openInvoice), onSelect: () => record.open(uuid) })
  }
  return (
    <span className="row-actions">
      {RETRYABLE.includes(row.status) ? (
        <button
          type="button"
          className="btn btn--small btn--ghost"
          onClick={() => void retry(row.id)}
          aria-label={intl.formatMessage(m.actionOn, { action: retryLabel(row.status), name: row.name })}
        >
          {retryLabel(row.status)}
        </button>
      ) : null}
      <RowMenu label={intl.formatMessage(m.more, { name: row.name })} items={items} />
    </span>
  )
}

function isInvoiceRecord(row: Upload): boolean {
  return (
    row.recordType === 'invoice' ||
    row.recordType === 'invoices' ||
    (!row.recordType && row.target === 'invoices')
  )
}
