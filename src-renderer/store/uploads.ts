/**
 * Live uploads of this run (per-file progress on the capture screen), the overall batch, and the
 * "needs attention" list. Fed by `upload` and `progress` events, applied in batches once per frame.
 */
import { bookdrop } from '../lib/bridge'
import { sendInBatches } from '../lib/files'
import { ATTENTION, IGNORED_LABELS, TERMINAL } from '../lib/labels'
import { defineMessages } from 'react-intl'
import { getIntl } from '../lib/i18n'
import { intakeSummary } from '../lib/batch'
import { settle } from '../lib/result'
import type {
  AiTarget,
  Events,
  IntakeOutcome,
  ProgressEvent,
  Result,
  Upload,
  UploadEvent,
  UploadStatus,
} from '../lib/types'
import { historyAfterUploads } from './history'
import type { AppState, SliceCreator } from './types'
import messages from './uploads.messages.json' with { type: 'json' }

const m = defineMessages(messages.m)

/** How many rows of this run the capture screen keeps. */
const LIVE_MAX = 300
/**
 * The newest files needing attention the capture screen lists (with a link to all of them in the
 * upload history): a short list to act on, cheap to lay out when thousands have failed.
 */
const ATTENTION_PAGE = 50

export interface LocalReject {
  key: string
  name: string
  reason: string
}

export interface Progress {
  sent: number
  total: number
}

export interface UploadsSlice {
  live: Record<number, Upload>
  /** Newest first. */
  liveOrder: number[]
  /**
   * Ids of the current batch (for the overall bar and its summary): the files of one "add" (a drop,
   * the picker), or files arriving while the last batch runs; a new batch starts when the last one
   * is done.
   */
  batch: number[]
  /** Adds in progress: rows arriving meanwhile belong to the current batch, even a finished one. */
  batchOpen: number
  progress: Record<number, Progress>
  /** Failed, skipped and duplicate rows of the active profile, newest first. */
  attention: Upload[]
  attentionTotal: number
  attentionLoaded: boolean
  /** Files refused before they reached the engine (too large for the bridge, unreadable). */
  localRejects: LocalReject[]
  sending: number
  applyUploads(events: readonly UploadEvent[]): void
  applyProgress(events: readonly ProgressEvent[]): void
  loadAttention(): Promise<void>
  sendFiles(files: readonly File[], target: AiTarget, prompt: string): Promise<void>
  /** Demo: the sample receipts dropped as expenses (main writes and sends them). */
  addSampleReceipts(): Promise<void>
  retryUpload(id: number): Promise<Result<Upload>>
  cancelUpload(id: number): Promise<Result<Upload>>
  /** Issue 33: a held possible duplicate is discarded (never sent). */
  discardUpload(id: number): Promise<Result<Upload>>
  retryAllFailed(): Promise<void>
  dismissReject(key: string): void
  resetUploadsForProfile(): void
}

let rejectSeq = 0

/** A profile's uploads before any is known: none live, none needing attention. */
function noProfileUploads(): Pick<
  UploadsSlice,
  | 'live'
  | 'liveOrder'
  | 'batch'
  | 'batchOpen'
  | 'progress'
  | 'attention'
  | 'attentionTotal'
  | 'attentionLoaded'
> {
  return {
    live: {},
    liveOrder: [],
    batch: [],
    batchOpen: 0,
    progress: {},
    attention: [],
    attentionTotal: 0,
    attentionLoaded: false,
  }
}

export const createUploadsSlice: SliceCreator<UploadsSlice> = (set, get) => {
  /**
   * An add begins: its files make one batch (a finished batch gives way to a new one now, so a file
   * skipped at once and one still being read are counted together).
   */
  const openBatch = () =>
    set((s) => {
      const done = s.batch.every((id) => {
        const row = s.live[id]
        return !row || TERMINAL.includes(row.status)
      })
      return { batch: done ? [] : s.batch, batchOpen: s.batchOpen + 1 }
    })
  const closeBatch = () => set((s) => ({ batchOpen: Math.max(0, s.batchOpen - 1) }))

  /**
   * What main did with files given to it: rows arrive as upload events, and the outcomes say what
   * was ignored (and cover events that come late). `count`: how many files a failed call was about.
   */
  const takeOutcomes = (
    r: Result<IntakeOutcome[]>,
    count: number,
  ): { outcomes: IntakeOutcome[]; failed: number } => {
    if (!r.ok) {
      get().toast('error', getIntl().formatMessage(m.notAdded, { count, message: r.error.message }))
      return { outcomes: [], failed: count }
    }
    const rows: Events['upload'][] = []
    for (const o of r.value) {
      if (o.kind === 'ignored') {
        set((s) => ({
          localRejects: [
            ...s.localRejects,
            {
              key: `r${++rejectSeq}`,
              name: o.path.split(/[\\/]/).pop() || o.path,
              reason: ('message' in o ? o.message : null) ?? IGNORED_LABELS[o.why] ?? o.why,
            },
          ],
        }))
      } else {
        rows.push({ upload: o.upload, previous: null })
      }
    }
    const s = get()
    const missing = rows.filter((e) => !(e.upload.id in s.live))
    if (missing.length) s.applyUploads(missing)
    return { outcomes: r.value, failed: 0 }
  }

  return {
    ...noProfileUploads(),
    localRejects: [],
    sending: 0,

    applyUploads: (events) => {
      if (events.length === 0) return
      set((s) => {
        let { live, liveOrder, batch, progress, attention, attentionTotal } = s
        let counts = s.session?.counts
        const mine = events.filter((e) => e.upload.profileId === s.activeId)
        if (mine.length) {
          live = { ...live }
          if (counts) counts = { ...counts }
          let attentionMap: Map<number, Upload> | null = null
          for (const { upload, previous } of mine) {
            attentionMap ??= new Map(attention.map((a) => [a.id, a]))
            // The status we last saw wins over the event's `previous`: applying the same change twice
            // (an action's answer, then its event) moves nothing twice.
            const known: UploadStatus | undefined =
              live[upload.id]?.status ?? attentionMap.get(upload.id)?.status
            const prev: UploadStatus | null = known ?? previous
            if (counts && prev !== upload.status) {
              if (prev !== null && counts[prev] > 0) counts[prev]--
              counts[upload.status]++
            }
            const isNew = !(upload.id in live)
            live[upload.id] = upload
            if (isNew) {
              liveOrder = [upload.id, ...liveOrder]
              const batchDone = batch.every((id) => {
                const row = live[id]
                return !row || TERMINAL.includes(row.status)
              })
              batch = batchDone && s.batchOpen === 0 ? [upload.id] : [...batch, upload.id]
            }
            if (TERMINAL.includes(upload.status) && upload.id in progress) {
              const { [upload.id]: _gone, ...rest } = progress
              progress = rest
            }
            const wasAttention = prev !== null && ATTENTION.includes(prev)
            const nowAttention = ATTENTION.includes(upload.status)
            const shown = attentionMap.has(upload.id)
            if (nowAttention) {
              attentionMap.delete(upload.id)
              attentionMap = new Map([[upload.id, upload], ...attentionMap])
              if (!wasAttention) attentionTotal++
            } else {
              if (shown) attentionMap.delete(upload.id)
              if (wasAttention) attentionTotal = Math.max(0, attentionTotal - 1)
            }
          }
          if (attentionMap) attention = [...attentionMap.values()].slice(0, ATTENTION_PAGE)
          if (liveOrder.length > LIVE_MAX) {
            const keep = new Set(liveOrder.slice(0, LIVE_MAX))
            for (const id of liveOrder.slice(LIVE_MAX)) delete live[id]
            liveOrder = liveOrder.slice(0, LIVE_MAX)
            batch = batch.filter((id) => keep.has(id))
          }
        }
        const hist = historyAfterUploads(s, events)
        return {
          live,
          liveOrder,
          batch,
          progress,
          attention,
          attentionTotal,
          ...(s.session && counts ? { session: { ...s.session, counts } } : {}),
          ...(hist ?? {}),
        }
      })
    },

    applyProgress: (events) => {
      if (events.length === 0) return
      set((s) => {
        const progress = { ...s.progress }
        for (const e of events) {
          const row = s.live[e.id]
          if (row && TERMINAL.includes(row.status)) continue
          progress[e.id] = { sent: e.sent, total: e.total }
        }
        return { progress }
      })
    },

    loadAttention: async () => {
      const profileId = get().activeId
      if (!profileId) return
      const r = await settle(
        bookdrop.history({
          statuses: [...ATTENTION],
          profileId,
          order: 'desc',
          offset: 0,
          limit: ATTENTION_PAGE,
        }),
      )
      if (get().activeId !== profileId) return
      if (r.ok) set({ attention: r.value.rows, attentionTotal: r.value.total, attentionLoaded: true })
      else get().toast('error', getIntl().formatMessage(m.attentionNotLoaded, { message: r.error.message }))
    },

    sendFiles: async (files, target, prompt) => {
      if (files.length === 0) return
      const maxBytes = get().settings?.maxFileBytes ?? 25 * 1024 * 1024
      set((s) => ({ sending: s.sending + files.length }))
      openBatch()
      const outcomes: IntakeOutcome[] = []
      let notTaken = 0
      const extra = prompt.trim() ? { prompt: prompt.trim() } : {}
      const apply = (r: Result<IntakeOutcome[]>, count: number) => {
        const n = takeOutcomes(r, count)
        outcomes.push(...n.outcomes)
        notTaken += n.failed
      }
      try {
        // In the desktop app a dropped file has a real path: send that file itself (it can then be
        // shown in its folder and moved). Elsewhere the bytes travel over the bridge.
        const withPath: string[] = []
        const bytesOnly: File[] = []
        for (const f of files) {
          const path = bookdrop.pathForFile?.(f)
          if (path) withPath.push(path)
          else bytesOnly.push(f)
        }
        if (withPath.length)
          apply(await settle(bookdrop.addFiles({ paths: withPath, target, ...extra })), withPath.length)
        const rejected = await sendInBatches(bytesOnly, maxBytes, async (batch) => {
          apply(await settle(bookdrop.addFileContents({ files: batch, target, ...extra })), batch.length)
        })
        if (rejected.length) {
          notTaken += rejected.length
          set((s) => ({
            localRejects: [...s.localRejects, ...rejected.map((x) => ({ key: `r${++rejectSeq}`, ...x }))],
          }))
        }
      } finally {
        set((s) => ({ sending: Math.max(0, s.sending - files.length) }))
        closeBatch()
      }
      // Each count for what it is: added, skipped (and why), already sent, not taken (issue 26).
      const said = intakeSummary(outcomes, notTaken)
      if (said) get().toast(said.tone, said.message)
    },

    addSampleReceipts: async () => {
      set((s) => ({ sending: s.sending + 1 }))
      openBatch()
      try {
        const { outcomes } = takeOutcomes(await settle(bookdrop.addSampleReceipts({})), 1)
        const queued = outcomes.filter((o) => o.kind === 'queued').length
        if (outcomes.length > 0 && outcomes.every((o) => o.kind === 'duplicate'))
          get().toast('info', getIntl().formatMessage(m.samplesSentBefore))
        else if (queued > 0 && queued === outcomes.length)
          get().toast('success', getIntl().formatMessage(m.samplesAdded, { count: queued }))
        else {
          const said = intakeSummary(outcomes, 0)
          if (said) get().toast(said.tone, said.message)
        }
      } finally {
        set((s) => ({ sending: Math.max(0, s.sending - 1) }))
        closeBatch()
      }
    },

    retryUpload: async (id) => {
      const r = await settle(bookdrop.retryUpload({ id }))
      if (r.ok) get().applyUploads([{ upload: r.value, previous: statusOf(get(), id) }])
      else get().toast('error', r.error.message)
      return r
    },

    cancelUpload: async (id) => {
      const r = await settle(bookdrop.cancelUpload({ id }))
      if (r.ok) get().applyUploads([{ upload: r.value, previous: statusOf(get(), id) }])
      else get().toast('error', r.error.message)
      return r
    },

    discardUpload: async (id) => {
      const r = await settle(bookdrop.discardUpload({ id }))
      if (r.ok) get().applyUploads([{ upload: r.value, previous: statusOf(get(), id) }])
      else get().toast('error', r.error.message)
      return r
    },

    retryAllFailed: async () => {
      const r = await settle(bookdrop.retryFailed({}))
      if (r.ok) get().toast('info', getIntl().formatMessage(m.retriedAll, { count: r.value.retried }))
      else get().toast('error', r.error.message)
    },

    dismissReject: (key) => set((s) => ({ localRejects: s.localRejects.filter((r) => r.key !== key) })),

    resetUploadsForProfile: () => set(noProfileUploads()),
  }
}

/** An upload this window has loaded (this session, needing attention, a page of history), or null. */
export function loadedUpload(s: AppState, id: number): Upload | null {
  const page = s.historyIndex[id]
  return (
    s.live[id] ??
    s.attention.find((a) => a.id === id) ??
    (page !== undefined ? s.historyPages[page]?.find((r) => r.id === id) : undefined) ??
    null
  )
}

/** The status a row had before an action, so counts and lists move it correctly. */
function statusOf(s: AppState, id: number): Upload['status'] | null {
  return loadedUpload(s, id)?.status ?? null
}
