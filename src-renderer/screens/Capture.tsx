import { defineMessages } from 'react-intl'
import { useI18n } from '../lib/i18n'
import { type ReactNode, useEffect, useMemo, useRef, useState } from 'react'
import { DropZone, type DropZoneHandle } from '../components/DropZone'
import { BusyButton, Field, TargetOptions, TextAreaField } from '../components/Field'
import { MOD } from '../components/Nav'
import { PhonePanel } from '../components/PhonePanel'
import { ProgressBar } from '../components/Progress'
import { Screen } from '../components/Screen'
import { Section } from '../components/Section'
import { LiveUploadRow, UploadActions, uploadReason } from '../components/UploadRow'
import { StatusBadge } from '../components/Badge'
import { formatBytes, formatDateTime, formatNumber } from '../lib/format'
import { ACTIVE, TARGET_LABELS } from '../lib/labels'
import { batchCounts, batchSummary } from '../lib/batch'
import type { AiTarget, Upload } from '../lib/types'
import { useApp } from '../store'
import { activeProfile } from '../store/session'
import { useShallow } from 'zustand/react/shallow'
import messages from './Capture.messages.json' with { type: 'json' }

const m = defineMessages(messages.m)

/** The current batch: its rows, what became of them (lib/batch.ts) and the bytes sent so far. */
function useBatchProgress() {
  const [batch, live, progress] = useApp(useShallow((s) => [s.batch, s.live, s.progress] as const))
  const reading = useApp((s) => s.batchOpen > 0)
  return useMemo(() => {
    const rows: Upload[] = []
    let total = 0
    let sent = 0
    for (const id of batch) {
      const u = live[id]
      if (!u) continue
      rows.push(u)
      const size = u.size ?? progress[id]?.total ?? 0
      total += size
      if (u.status === 'queued' || u.status === 'uploading' || u.status === 'waiting_retry')
        sent += Math.min(progress[id]?.sent ?? 0, size)
      else sent += size
    }
    const counts = batchCounts(rows, reading)
    return { rows, counts, summary: batchSummary(rows, counts), total, sent }
  }, [batch, live, progress, reading])
}

export function Capture() {
  const [target, prompt] = useApp(useShallow((s) => [s.captureTarget, s.capturePrompt] as const))
  const [setCapture, sendFiles] = useApp(useShallow((s) => [s.setCapture, s.sendFiles] as const))
  const [sending, liveOrder, live] = useApp(useShallow((s) => [s.sending, s.liveOrder, s.live] as const))
  const progress = useApp((s) => s.progress)
  const state = useApp((s) => s.session?.state ?? 'active')
  const addFilesRequested = useApp((s) => s.addFilesRequested)
  const consumeAddFiles = useApp((s) => s.consumeAddFiles)
  const zone = useRef<DropZoneHandle>(null)
  const batch = useBatchProgress()
  const intl = useI18n()

  useEffect(() => {
    if (addFilesRequested && consumeAddFiles()) zone.current?.openPicker()
  }, [addFilesRequested, consumeAddFiles])

  const activeCount = liveOrder.filter((id) => {
    const u = live[id]
    return u && ACTIVE.includes(u.status)
  }).length

  return (
    <Screen title={intl.formatMessage(m.title)} intro={intl.formatMessage(m.intro)}>
      <div className="capture__options">
        <Field label={intl.formatMessage(m.sendAs)} hint={intl.formatMessage(m.sendAsHint)}>
          {(p) => (
            <select
              {...p}
              value={target}
              onChange={(e) => setCapture({ captureTarget: e.target.value as AiTarget })}
            >
              <TargetOptions />
            </select>
          )}
        </Field>
        <TextAreaField
          label={intl.formatMessage(m.instructions)}
          className="capture__prompt"
          hint={intl.formatMessage(target === 'bank-transactions' ? m.instructionsBank : m.instructionsHint)}
          rows={2}
          value={prompt}
          maxLength={4000}
          onChange={(capturePrompt) => setCapture({ capturePrompt })}
          placeholder={intl.formatMessage(m.instructionsPlaceholder)}
        />
      </div>

      <DropZone
        ref={zone}
        large
        busy={sending > 0}
        onFiles={(files) => void sendFiles(files, target, prompt)}
        hint={intl.formatMessage(m.dropHint, { shortcut: `${MOD}O` })}
      />

      <PhonePanel />

      <SampleReceipts />

      {batch.counts.files > 0 ? (
        <section className="card overall" aria-labelledby="overall-title">
          <div className="overall__head">
            <h2 id="overall-title" className="h3">
              {intl.formatMessage(batch.counts.finished ? m.lastBatch : m.sending)}
            </h2>
            {/* Not a live region: BatchAnnouncer says each change of the batch once. */}
            <span className="muted overall__summary" data-testid="batch-summary">
              {batch.summary}
              {state === 'paused' && !batch.counts.finished ? ` · ${intl.formatMessage(m.paused)}` : ''}
            </span>
          </div>
          <ProgressBar
            label={intl.formatMessage(m.overall)}
            value={batch.sent}
            max={batch.total || 1}
            valueText={intl.formatMessage(m.overallText, {
              sent: formatBytes(batch.sent),
              total: formatBytes(batch.total),
              summary: batch.summary,
            })}
          />
        </section>
      ) : null}

      <NeedsAttention />

      {liveOrder.length > 0 ? (
        <Section
          title={intl.formatMessage(m.session, {
            files: liveOrder.length,
            active: activeCount,
            muted: (chunks: ReactNode[]) => <span className="muted">{chunks}</span>,
          })}
        >
          <ul className="upload-list">
            {liveOrder.map((id) => {
              const u = live[id]
              return u ? <LiveUploadRow key={id} u={u} progress={progress[id]} /> : null
            })}
          </ul>
        </Section>
      ) : null}
    </Screen>
  )
}

/** Skipped, failed and duplicate files with their reasons and one-click actions. */
export function NeedsAttention() {
  const [attention, total] = useApp(useShallow((s) => [s.attention, s.attentionTotal] as const))
  const [rejects, dismiss] = useApp(useShallow((s) => [s.localRejects, s.dismissReject] as const))
  const [retryAll, setScreen] = useApp(useShallow((s) => [s.retryAllFailed, s.setScreen] as const))
  const setHistoryFilter = useApp((s) => s.setHistoryFilter)
  const intl = useI18n()
  const failedShown = attention.some((u) => u.status === 'failed')
  if (attention.length === 0 && rejects.length === 0) return null
  return (
    <Section
      className="section attention"
      title={
        <>
          {intl.formatMessage(m.attention)}{' '}
          <span className="badge badge--warn">{formatNumber(total + rejects.length)}</span>
        </>
      }
      actions={
        failedShown ? (
          <button type="button" className="btn btn--small" onClick={() => void retryAll()}>
            {intl.formatMessage(m.retryAll)}
          </button>
        ) : null
      }
    >
      <ul className="attention__list">
        {rejects.map((r) => (
          <li key={r.key} className="attention__item">
            <div className="attention__name">
              <bdi>{r.name}</bdi>
            </div>
            <span className="badge badge--warn">{intl.formatMessage(m.notTaken)}</span>
            <div className="attention__why">{r.reason}</div>
            <span className="row-actions">
              <button
                type="button"
                className="btn btn--small btn--ghost"
                onClick={() => dismiss(r.key)}
                aria-label={intl.formatMessage(m.dismissFile, { name: r.name })}
              >
                {intl.formatMessage(m.dismiss)}
              </button>
            </span>
          </li>
        ))}
        {attention.map((u) => (
          <li key={u.id} className="attention__item">
            <div className="attention__name" title={u.path}>
              <bdi>{u.name}</bdi>
              <span className="muted">
                {' '}
                · {TARGET_LABELS[u.target]} · {formatDateTime(u.updatedAt)}
              </span>
            </div>
            <StatusBadge status={u.status} />
            <div className="attention__why">{uploadReason(u) ?? intl.formatMessage(m.noReason)}</div>
            <UploadActions u={u} />
          </li>
        ))}
      </ul>
      {total > attention.length ? (
        <p className="muted">
          {intl.formatMessage(m.showingNewest, { shown: attention.length, total })}{' '}
          <button
            type="button"
            className="linklike"
            onClick={() => {
              setHistoryFilter({ statuses: ['failed', 'skipped', 'duplicate'] })
              setScreen('history')
            }}
          >
            {intl.formatMessage(m.seeAll)}
          </button>
        </p>
      ) : null}
    </Section>
  )
}

/** The demo's offer: real-looking receipts, dropped in one click, read by the demo server. */
function SampleReceipts() {
  const demo = useApp((s) => activeProfile(s)?.demo ?? false)
  const add = useApp((s) => s.addSampleReceipts)
  const [busy, setBusy] = useState(false)
  const intl = useI18n()
  if (!demo) return null
  return (
    <Section
      className="card demo-offer"
      title={intl.formatMessage(m.samplesTitle)}
      intro={intl.formatMessage(m.samplesText)}
      actions={
        <BusyButton
          className="btn btn--primary"
          busy={busy}
          busyLabel={intl.formatMessage(m.dropping)}
          onClick={async () => {
            setBusy(true)
            await add()
            setBusy(false)
          }}
        >
          {intl.formatMessage(m.dropSamples)}
        </BusyButton>
      }
    />
  )
}
