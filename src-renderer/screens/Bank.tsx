import { useState } from 'react'
import { defineMessages } from 'react-intl'
import { CALLS } from '../../contract'
import { BANK_UPLOAD_KINDS, fileKind } from '../../contract/api'
import { StatusBadge } from '../components/Badge'
import { ConfirmDialog } from '../components/Dialog'
import { uploadReason } from '../components/UploadRow'
import { DropZone } from '../components/DropZone'
import { FormError, SubmitButton, TextAreaField } from '../components/Field'
import { type Column } from '../components/RecordTable'
import { Screen } from '../components/Screen'
import { fileToBase64 } from '../lib/base64'
import { MAX_FILE_BYTES_ON_BRIDGE } from '../lib/files'
import { formatBytes, formatDate, formatMoney } from '../lib/format'
import { useI18n } from '../lib/i18n'
import type { RecordRow, Result } from '../lib/types'
import { useApp } from '../store'
import { useSubmit } from '../lib/useSubmit'
import { RecordListSection } from '../components/RecordListSection'
import messages from './Bank.messages.json' with { type: 'json' }
import { Section } from '../components/Section'

const m = defineMessages(messages.m)

const COLUMNS: Column[] = [
  { key: 'date', label: m.date, fit: true, render: (r) => formatDate(r.date) },
  { key: 'narration', label: m.narration, primary: true },
  {
    key: 'amount',
    label: m.amount,
    numeric: true,
    fit: true,
    render: (r) => formatMoney(r.amount as number | undefined, r.currency),
  },
  { key: 'currency', label: m.currency, width: '80px', priority: 3 },
]

const ACCEPT = BANK_UPLOAD_KINDS.map((k) => `.${k}`).join(',')

export function Bank() {
  const remove = useApp((s) => s.deleteBankTransaction)
  const toast = useApp((s) => s.toast)
  const [deleting, setDeleting] = useState<RecordRow | null>(null)
  const { busy, error, submit, reset } = useSubmit()
  const intl = useI18n()

  return (
    <Screen title={intl.formatMessage(m.title)}>
      <div className="split">
        <RecordListSection
          listKey="bank"
          className="split__main section"
          title={intl.formatMessage(m.transactions)}
          caption={intl.formatMessage(m.transactions)}
          columns={COLUMNS}
          empty={intl.formatMessage(m.empty)}
          actionsWidth="92px"
          actions={(row) => (
            <button
              type="button"
              className="btn btn--small btn--danger-ghost"
              onClick={() => setDeleting(row)}
              aria-label={intl.formatMessage(m.deleteOne, { name: String(row.narration ?? row.uuid) })}
            >
              {intl.formatMessage(m.delete)}
            </button>
          )}
        />
        <aside className="split__side">
          <StatementUpload />
        </aside>
      </div>
      {deleting ? (
        <ConfirmDialog
          title={intl.formatMessage(m.deleteTitle)}
          message={
            <p>
              {deleting.date ? `${formatDate(deleting.date)} · ` : ''}
              <bdi>{deleting.narration ?? deleting.uuid}</bdi> ·{' '}
              <span className="nowrap">
                {formatMoney(deleting.amount as number | undefined, deleting.currency)}
              </span>
              <br />
              {intl.formatMessage(m.deleteWarning)}
            </p>
          }
          confirmLabel={intl.formatMessage(m.deleteConfirm)}
          danger
          busy={busy}
          error={error}
          onCancel={() => {
            setDeleting(null)
            reset()
          }}
          onConfirm={async () => {
            const done = await submit(() => remove(deleting.uuid))
            if (!done) return
            toast('success', intl.formatMessage(m.deleted))
            setDeleting(null)
          }}
        />
      ) : null}
    </Screen>
  )
}

/** Statement upload: the instructions are required by the API, and the form says so up front. */
function StatementUpload() {
  const upload = useApp((s) => s.uploadBankStatement)
  const [files, setFiles] = useState<File[]>([])
  const [prompt, setPrompt] = useState('')
  const { busy, error, fields, submit: send, refuse } = useSubmit()
  const [done, setDone] = useState<string | null>(null)
  const intl = useI18n()

  const pick = (list: File[]) => {
    const bad = list.filter((f) => !(BANK_UPLOAD_KINDS as readonly string[]).includes(fileKind(f.name)))
    const big = list.filter((f) => f.size > MAX_FILE_BYTES_ON_BRIDGE)
    const { files: _before, ...others } = fields
    const refused = bad.length
      ? intl.formatMessage(m.notStatement, {
          files: intl.formatList(bad.map((f) => f.name)),
          kinds: intl.formatList(BANK_UPLOAD_KINDS),
        })
      : big.length
        ? intl.formatMessage(m.tooLarge, {
            files: intl.formatList(big.map((f) => f.name)),
            size: formatBytes(MAX_FILE_BYTES_ON_BRIDGE),
          })
        : null
    refuse(error, refused ? { ...others, files: refused } : others)
    setFiles(list.filter((f) => !bad.includes(f) && !big.includes(f)).slice(0, 10))
  }

  /** The chosen files' contents; a file that cannot be read is this form's error. */
  const read = async (): Promise<Result<{ name: string; base64: string }[]>> => {
    try {
      const value = await Promise.all(
        files.map(async (f) => ({ name: f.name, base64: await fileToBase64(f) })),
      )
      return { ok: true, value }
    } catch (err) {
      const message = intl.formatMessage(m.unreadable, {
        reason: err instanceof Error ? err.message : String(err),
      })
      return { ok: false, error: { code: 'unreadable', message } }
    }
  }

  const submit = async (e: React.FormEvent) => {
    e.preventDefault()
    setDone(null)
    const problems: Record<string, string> = {}
    if (files.length === 0) problems.files = intl.formatMessage(m.noFiles)
    // The same rule main applies to this call, in words that say what to write.
    const promptCheck = CALLS.uploadBankStatement.shape.prompt.safeParse(prompt)
    if (!promptCheck.success)
      problems.prompt =
        promptCheck.error.issues[0]?.code === 'too_big'
          ? intl.formatMessage(m.promptTooLong, { max: 4000 })
          : intl.formatMessage(m.promptMissing)
    refuse(null, problems)
    if (problems.files || problems.prompt) return
    const outcomes = await send(async () => {
      const contents = await read()
      return contents.ok ? upload({ files: contents.value, prompt: prompt.trim() }) : contents
    })
    if (!outcomes) return
    const taken = outcomes.filter((o) => o.kind === 'queued').length
    const other = outcomes.length - taken
    setDone(
      [
        taken ? intl.formatMessage(m.queued, { count: taken }) : '',
        other ? intl.formatMessage(m.notSent, { count: other }) : '',
      ]
        .filter(Boolean)
        .join(' '),
    )
    setFiles([])
    setPrompt('')
  }

  return (
    <Section className="card" title={intl.formatMessage(m.upload)}>
      <form className="form" onSubmit={submit} noValidate>
        <DropZone
          title={intl.formatMessage(m.drop)}
          hint={`${BANK_UPLOAD_KINDS.join(', ')}`}
          accept={ACCEPT}
          onFiles={pick}
        />
        {files.length ? (
          <ul className="file-list" aria-label={intl.formatMessage(m.chosen)}>
            {files.map((f) => (
              <li key={f.name}>
                {f.name} <span className="muted">{formatBytes(f.size)}</span>
              </li>
            ))}
          </ul>
        ) : null}
        {fields.files ? <div className="field__error">{fields.files}</div> : null}
        <TextAreaField
          label={intl.formatMessage(m.instructions)}
          required
          error={fields.prompt}
          hint={intl.formatMessage(m.instructionsHint)}
          rows={3}
          maxLength={4000}
          value={prompt}
          onChange={setPrompt}
        />
        <FormError message={error} />
        <SubmitButton busy={busy} busyLabel={intl.formatMessage(m.uploading)}>
          {intl.formatMessage(m.submit)}
        </SubmitButton>
        {done ? (
          <p className="success" role="status">
            {done}
          </p>
        ) : null}
      </form>
      <SentStatements />
    </Section>
  )
}

/** Statements sent in this session and where each one is. */
function SentStatements() {
  const liveOrder = useApp((s) => s.liveOrder)
  const live = useApp((s) => s.live)
  const intl = useI18n()
  const rows = liveOrder.map((id) => live[id]).filter((u) => u?.target === 'bank-transactions')
  if (rows.length === 0) return null
  return (
    <div className="section">
      <h3 className="h4">{intl.formatMessage(m.sent)}</h3>
      <ul className="plain">
        {rows.map((u) =>
          u ? (
            <li key={u.id} className="small">
              {u.name} <StatusBadge status={u.status} />
              {u.status !== 'completed' && uploadReason(u) ? (
                <div className="muted">{uploadReason(u)}</div>
              ) : null}
            </li>
          ) : null,
        )}
      </ul>
    </div>
  )
}
