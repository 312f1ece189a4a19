import { useEffect, useRef, useState } from 'react'
import { recordPatchSchema, recordPutSchema, issuesByField } from '../../contract/api'
import { ActionDialog } from '../components/Dialog'
import { BusyButton, DateField, Field, FormError, SearchField, TextField } from '../components/Field'
import { COMMON_COLUMNS } from '../components/RecordTable'
import { Screen } from '../components/Screen'
import type { RecordRow } from '../lib/types'
import { useApp } from '../store'
import { useSubmit } from '../lib/useSubmit'
import { RecordListSection } from '../components/RecordListSection'
import { useRecordList } from '../lib/useRecordList'
import type { ListKey } from '../store/records'

type Kind = 'expenses' | 'bills'

export function ExpensesBills() {
  const [tab, setTab] = useState<Kind>('expenses')
  const tabs: { id: Kind; label: string }[] = [
    { id: 'expenses', label: 'Expenses' },
    { id: 'bills', label: 'Bills' },
  ]
  const onKey = (e: React.KeyboardEvent) => {
    if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return
    e.preventDefault()
    const next = tab === 'expenses' ? 'bills' : 'expenses'
    setTab(next)
    document.getElementById(`tab-${next}`)?.focus()
  }
  return (
    <Screen title="Expenses & bills">
      <div role="tablist" aria-label="Record kind" className="tabs" onKeyDown={onKey}>
        {tabs.map((t) => (
          <button
            key={t.id}
            id={`tab-${t.id}`}
            type="button"
            role="tab"
            aria-selected={tab === t.id}
            aria-controls={`panel-${t.id}`}
            tabIndex={tab === t.id ? 0 : -1}
            className="tabs__tab"
            onClick={() => setTab(t.id)}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`}>
        <RecordList key={tab} kind={tab} />
      </div>
    </Screen>
  )
}

function RecordList({ kind }: { kind: Kind }) {
  const key: ListKey = kind
  const { list, load } = useRecordList(key)
  const [editing, setEditing] = useState<string | null>(null)
  const [replacing, setReplacing] = useState<RecordRow | null>(null)
  const [search, setSearch] = useState(list.search)

  return (
    <RecordListSection
      listKey={key}
      pagerLabel={kind}
      caption={kind === 'expenses' ? 'Expenses' : 'Bills'}
      columns={COMMON_COLUMNS}
      empty={kind === 'expenses' ? 'No expenses yet.' : 'No bills yet.'}
      actionsWidth={kind === 'bills' ? '212px' : '128px'}
      before={
        <form
          className="inline-form"
          role="search"
          aria-label={`Search ${kind}`}
          onSubmit={(e) => {
            e.preventDefault()
            void load(key, { search, page: 1 })
          }}
        >
          <SearchField label={`Search ${kind}`} value={search} onChange={setSearch} />
          <button type="submit" className="btn">
            Search
          </button>
        </form>
      }
      after={replacing ? <ReplaceBillDialog row={replacing} onClose={() => setReplacing(null)} /> : null}
      actions={(row) => (
        <span className="row-actions">
          <button
            type="button"
            className="btn btn--small"
            onClick={() => setEditing(editing === row.uuid ? null : row.uuid)}
            aria-expanded={editing === row.uuid}
            aria-label={`Edit narration of ${row.document_number ?? row.narration ?? row.uuid}`}
          >
            Edit narration
          </button>
          {kind === 'bills' ? (
            <button
              type="button"
              className="btn btn--small btn--ghost"
              onClick={() => setReplacing(row)}
              aria-label={`Replace bill ${row.document_number ?? row.uuid}`}
            >
              Replace…
            </button>
          ) : null}
        </span>
      )}
      below={(row) =>
        editing === row.uuid ? (
          <NarrationEditor kind={kind} row={row} onDone={() => setEditing(null)} />
        ) : null
      }
    />
  )
}

/** Inline PATCH of the narration: Enter saves, Escape cancels. */
function NarrationEditor({ kind, row, onDone }: { kind: Kind; row: RecordRow; onDone: () => void }) {
  const update = useApp((s) => s.updateNarration)
  const toast = useApp((s) => s.toast)
  const [value, setValue] = useState(String(row.narration ?? ''))
  const { busy, error, fields, submit, refuse } = useSubmit()
  const input = useRef<HTMLInputElement>(null)
  useEffect(() => input.current?.focus(), [])

  const save = async (e: React.FormEvent) => {
    e.preventDefault()
    const check = recordPatchSchema.safeParse({ narration: value })
    if (!check.success) {
      refuse(issuesByField(check.error).narration ?? check.error.issues[0]?.message ?? 'Not valid.')
      return
    }
    if ((await submit(() => update(kind, row.uuid, value.trim()))) === null) return
    toast('success', 'Narration saved.')
    onDone()
  }
  return (
    <form
      className="inline-form"
      onSubmit={save}
      noValidate
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation()
          onDone()
        }
      }}
    >
      <Field label="Narration" error={fields.narration ?? error}>
        {(p) => (
          <input
            ref={input}
            {...p}
            value={value}
            onChange={(e) => setValue(e.target.value)}
            className="input--wide"
          />
        )}
      </Field>
      <BusyButton type="submit" className="btn btn--primary btn--small" busy={busy} busyLabel="Saving…">
        Save
      </BusyButton>
      <button type="button" className="btn btn--small" onClick={onDone}>
        Cancel
      </button>
    </form>
  )
}

/** PUT of a bill: narration and date (both required by a full update). */
function ReplaceBillDialog({ row, onClose }: { row: RecordRow; onClose: () => void }) {
  const replace = useApp((s) => s.replaceBill)
  const toast = useApp((s) => s.toast)
  const [narration, setNarration] = useState(String(row.narration ?? ''))
  const [date, setDate] = useState(String(row.date ?? ''))
  const { busy, error, fields, submit, refuse } = useSubmit()

  const save = async () => {
    const body = { narration, date }
    const check = recordPutSchema.safeParse(body)
    if (!check.success) {
      refuse(null, issuesByField(check.error))
      return
    }
    if ((await submit(() => replace(row.uuid, check.data))) === null) return
    toast('success', 'Bill replaced.')
    onClose()
  }
  return (
    <ActionDialog
      title="Replace bill"
      onClose={onClose}
      onAction={() => void save()}
      label="Replace"
      busyLabel="Saving…"
      busy={busy}
    >
      <p className="muted">A replace (PUT) sends the bill’s narration and date together.</p>
      <TextField
        label="Narration"
        required
        error={fields.narration}
        value={narration}
        onChange={setNarration}
        input={{ 'data-autofocus': true }}
      />
      <DateField label="Date" required error={fields.date} value={date} onChange={setDate} />
      <FormError message={error} />
    </ActionDialog>
  )
}
