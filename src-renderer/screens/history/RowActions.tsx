import { RowMenu, type RowMenuItem } from '../../components/RowMenu'
import { bookdrop } from '../../lib/bridge'
import { CANCELLABLE, RETRYABLE, retryLabel } from '../../lib/labels'
import { settle } from '../../lib/result'
import type { Upload } from '../../lib/types'
import { useApp } from '../../store'
import { useShallow } from 'zustand/react/shallow'
import { discardWords } from '../../components/PossibleDuplicate'
import { useI18n } from '../../lib/i18n'

/** What a row's record offers: an invoice opens on the Invoices screen, any other record's id is copied. */
function useRecordAction() {
  const [openInvoice, setScreen] = useApp(useShallow((s) => [s.openInvoice, s.setScreen] as const))
  const toast = useApp((s) => s.toast)
  return {
    open: (uuid: string) => {
      void openInvoice(uuid)
      setScreen('invoices')
    },
    copy: (uuid: string) =>
      void navigator.clipboard?.writeText(uuid).then(
        () => toast('info', 'Record id copied.'),
        () => toast('info', `Record id: ${uuid}`),
      ),
  }
}

/** The record column: Open invoice, or the record's short id (click to copy), or a dash. */
export function RecordLink({ row }: { row: Upload }) {
  const record = useRecordAction()
  if (!row.recordUuid) return <span className="muted">—</span>
  const uuid = row.recordUuid
  if (isInvoiceRecord(row)) {
    return (
      <button
        type="button"
        className="linklike"
        onClick={() => record.open(uuid)}
        aria-label={`Open invoice ${uuid} created from ${row.name}`}
      >
        Open invoice
      </button>
    )
  }
  return (
    <button
      type="button"
      className="linklike mono"
      title={`${row.recordType ?? 'record'} ${uuid}: click to copy`}
      aria-label={`Copy record id ${uuid.slice(0, 8)}…`}
      onClick={() => record.copy(uuid)}
    >
      {uuid.slice(0, 8)}…
    </button>
  )
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
    else if (!r.value.shown) toast('info', `The file is at ${r.value.path}`)
  }
  // One primary action as a button (the one a person most likely wants); the rest in the row's menu,
  // the record's action included (its column gives way on narrow tables).
  const items: RowMenuItem[] = []
  if (CANCELLABLE.includes(row.status)) items.push({ label: 'Cancel', onSelect: () => void cancel(row.id) })
  // A held possible duplicate (issue 33): Send anyway is the button, Discard the first item.
  if (row.status === 'held') items.push({ label: discardWords(intl), onSelect: () => void discard(row.id) })
  items.push({ label: 'Show file', onSelect: () => void show() })
  const uuid = row.recordUuid
  if (uuid) {
    if (isInvoiceRecord(row)) items.push({ label: 'Open invoice', onSelect: () => record.open(uuid) })
    else items.push({ label: 'Copy record id', onSelect: () => record.copy(uuid) })
  }
  return (
    <span className="row-actions">
      {RETRYABLE.includes(row.status) ? (
        <button
          type="button"
          className="btn btn--small btn--ghost"
          onClick={() => void retry(row.id)}
          aria-label={`${retryLabel(row.status)}: ${row.name}`}
        >
          {retryLabel(row.status)}
        </button>
      ) : null}
      <RowMenu label={`More for ${row.name}`} items={items} />
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
