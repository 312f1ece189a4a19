import { useEffect, useRef, useState } from 'react'
import { defineMessages } from 'react-intl'
import { recordPatchSchema, recordPutSchema } from '../../contract/api'
import { ActionDialog } from '../components/Dialog'
import { BusyButton, DateField, Field, FormError, SearchField, TextField } from '../components/Field'
import { COMMON_COLUMNS } from '../components/RecordTable'
import { Screen } from '../components/Screen'
import type { RecordRow } from '../lib/types'
import { useApp } from '../store'
import { useI18n } from '../lib/i18n'
import { type FieldIssue, useSubmit, wordIssues } from '../lib/useSubmit'
import { RecordListSection } from '../components/RecordListSection'
import { useRecordList } from '../lib/useRecordList'
import type { ListKey } from '../store/records'
import messages from './ExpensesBills.messages.json' with { type: 'json' }

type Kind = 'expenses' | 'bills'

const m = defineMessages(messages.m)

/** A narration or date problem of the edit forms, in words. */
function narrationIssue(intl: ReturnType<typeof useI18n>) {
  return ({ field }: FieldIssue): string | undefined =>
    field === 'narration'
      ? intl.formatMessage(m.narrationEmpty)
      : field === 'date'
        ? intl.formatMessage(m.dateMissing)
        : undefined
}

export function ExpensesBills() {
  const intl = useI18n()
  const [tab, setTab] = useState<Kind>('expenses')
  const tabs: { id: Kind; label: string }[] = [
    { id: 'expenses', label: intl.formatMessage(m.expenses) },
    { id: 'bills', label: intl.formatMessage(m.bills) },
  ]
  const onKey = (e: React.KeyboardEvent) => {
    if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return
    e.preventDefault()
    const next = tab === 'expenses' ? 'bills' : 'expenses'
    setTab(next)
    document.getElementById(`tab-${next}`)?.focus()
  }
  return (
    <Screen title={intl.formatMessage(m.title)}>
      <div role="tablist" aria-label={intl.formatMessage(m.kind)} className="tabs" onKeyDown={onKey}>
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
  const intl = useI18n()
  const caption = intl.formatMessage(kind === 'expenses' ? m.expenses : m.bills)
  const searchLabel = intl.formatMessage(kind === 'expenses' ? m.searchExpenses : m.searchBills)
  // A row's name in its actions' labels: its number, else its narration, else (last) its id.
  const name = (row: RecordRow) => String(row.document_number ?? row.narration ?? row.uuid)

  return (
    <RecordListSection
      listKey={key}
      pagerLabel={caption}
      caption={caption}
      columns={COMMON_COLUMNS}
      empty={intl.formatMessage(kind === 'expenses' ? m.emptyExpenses : m.emptyBills)}
      actionsWidth={kind === 'bills' ? '212px' : '128px'}
      before={
        <form
          className="inline-form"
          role="search"
          aria-label={searchLabel}
          onSubmit={(e) => {
            e.preventDefault()
            void load(key, { search, page: 1 })
          }}
        >
          <SearchField label={searchLabel} value={search} onChange={setSearch} />
          <button type="submit" className="btn">
            {intl.formatMessage(m.search)}
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
            aria-label={intl.formatMessage(m.editNarrationOf, { name: name(row) })}
          >
            {intl.formatMessage(m.editNarration)}
          </button>
          {kind === 'bills' ? (
            <button
              type="button"
              className="btn btn--small btn--ghost"
              onClick={() => setReplacing(row)}
              aria-label={intl.formatMessage(m.replaceOf, { name: name(row) })}
            >
              {intl.formatMessage(m.replace)}
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
  const intl = useI18n()
  const input = useRef<HTMLInputElement>(null)
  useEffect(() => input.current?.focus(), [])

  const save = async (e: React.FormEvent) => {
    e.preventDefault()
    const check = recordPatchSchema.safeParse({ narration: value })
    if (!check.success) {
      refuse(wordIssues(check.error, narrationIssue(intl)).narration ?? intl.formatMessage(m.narrationEmpty))
      return
    }
    if ((await submit(() => update(kind, row.uuid, value.trim()))) === null) return
    toast('success', intl.formatMessage(m.saved))
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
      <Field label={intl.formatMessage(m.narration)} error={fields.narration ?? error}>
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
      <BusyButton
        type="submit"
        className="btn btn--primary btn--small"
        busy={busy}
        busyLabel={intl.formatMessage(m.saving)}
      >
        {intl.formatMessage(m.save)}
      </BusyButton>
      <button type="button" className="btn btn--small" onClick={onDone}>
        {intl.formatMessage(m.cancel)}
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
  const intl = useI18n()

  const save = async () => {
    const body = { narration, date }
    const check = recordPutSchema.safeParse(body)
    if (!check.success) {
      refuse(null, wordIssues(check.error, narrationIssue(intl)))
      return
    }
    if ((await submit(() => replace(row.uuid, check.data))) === null) return
    toast('success', intl.formatMessage(m.replaced))
    onClose()
  }
  return (
    <ActionDialog
      title={intl.formatMessage(m.replaceTitle)}
      onClose={onClose}
      onAction={() => void save()}
      label={intl.formatMessage(m.replaceAction)}
      busyLabel={intl.formatMessage(m.saving)}
      busy={busy}
    >
      <p className="muted">{intl.formatMessage(m.replaceIntro)}</p>
      <TextField
        label={intl.formatMessage(m.narration)}
        required
        error={fields.narration}
        value={narration}
        onChange={setNarration}
        input={{ 'data-autofocus': true }}
      />
      <DateField label={intl.formatMessage(m.date)} required error={fields.date} value={date} onChange={setDate} />
      <FormError message={error} />
    </ActionDialog>
  )
}
