/**
 * The review room (issue 32): the records Bookdrop created (the records table, engine/records.ts),
 * their flags (review/flags.ts), edits sent with PATCH /expenses|bills/{uuid}, Mark reviewed, the
 * business's currency and the month's money.
 */
import type { Calls, ParsedReq, Profile, ProfileView } from '../../../contract'
import {
  EDITABLE_KINDS,
  type ReviewDetail,
  type ReviewItem,
  type ReviewSource,
} from '../../../contract/review'
import { RECORD_EDIT_FIELDS } from '../../../schemas/assumptions'
import type { RecordPatch } from '../../../schemas/api'
import type { RecordSummaryRead } from '../../../schemas/read/summary'
import { AppError } from '../app-error'
import { printable } from '../names'
import { asFailure } from '../queue/types'
import { REVIEW_TEXT, businessCurrency, flagsOf, localDay } from '../review/flags'
import { monthBounds, monthMoney } from '../review/money'
import { type FlagContext, type StoredRecord, summaryOf } from '../store/records'
import type { AppContext } from './context'
import type { Room } from './room'

export type ReviewRoom = Room<
  'review.list' | 'review.get' | 'review.save' | 'review.setReviewed' | 'review.money' | 'review.setCurrency'
>

const SOURCES: Readonly<Record<string, ReviewSource>> = { watch: 'folder', drop: 'drop', cli: 'drop', mail: 'mail', phone: 'phone' }

type Edit = ParsedReq<'review.save'>

export function reviewRoom(ctx: AppContext): ReviewRoom {
  const keeper = () => ctx.engine.records
  const flagContext = (p: Profile): FlagContext => ({ currency: businessCurrency(p), today: localDay() })

  const item = (r: StoredRecord, fc: FlagContext): ReviewItem => ({
    record: summaryOf(r),
    uploadId: r.uploadId,
    name: printable(r.name),
    source: SOURCES[r.source] ?? 'drop',
    flags: flagsOf(r, fc, r.fetchedAt === null ? [] : keeper().store.sameRecord(r)),
    createdAt: r.createdAt,
    completedAt: r.completedAt,
    recordCount: r.recordCount,
  })

  const detail = (r: StoredRecord, p: Profile): ReviewDetail => {
    const kindEditable = EDITABLE_KINDS.includes(r.kind)
    const reason = r.deletedOnServer
      ? REVIEW_TEXT.readOnlyDeleted()
      : !kindEditable
        ? REVIEW_TEXT.readOnlyKind(r.kind)
        : r.fetchedAt === null
          ? REVIEW_TEXT.readOnlyUnread()
          : null
    return {
      item: item(r, flagContext(p)),
      editable: reason === null,
      notEditableReason: reason,
      fields: r.fields,
      readProblem: r.fetchedAt === null && r.readError ? REVIEW_TEXT.readPending(r.readError) : null,
    }
  }

  /** The active business's record `uuid`, or not_found. */
  const find = (uuid: string): { r: StoredRecord; p: Profile } => {
    const p = ctx.activeBusiness().profile
    const r = keeper().store.byUuid(uuid, p.id)
    if (!r) throw new AppError('not_found', REVIEW_TEXT.notFound().text, undefined, 404)
    return { r, p }
  }

  /** Reads a record not read yet; a failure is kept on the row (shown as readProblem), never thrown. */
  const readIfUnread = async (r: StoredRecord): Promise<StoredRecord> => {
    if (r.fetchedAt !== null) return r
    try {
      return (await keeper().readNow(r)) ?? r
    } catch {
      return keeper().store.byUuid(r.uuid, r.profileId) ?? r
    }
  }

  /** The fields of an edit that differ from what Bookdrop keeps, under the names the API takes. */
  const patchOf = (r: StoredRecord, edit: Edit): RecordPatch => {
    const patch: Record<string, unknown> = {}
    const changed = <K extends keyof typeof RECORD_EDIT_FIELDS>(k: K, v: unknown, stored: unknown) => {
      if (v !== undefined && v !== stored) patch[RECORD_EDIT_FIELDS[k]] = v
    }
    changed('vendor', edit.vendor === null ? '' : edit.vendor, r.vendor ?? '')
    changed('date', edit.date, r.date)
    if (edit.total !== undefined && Number(edit.total) !== Number(r.total ?? NaN)) patch[RECORD_EDIT_FIELDS.total] = Number(edit.total)
    changed('currency', edit.currency, r.currency)
    if (edit.narration !== undefined && (edit.narration ?? '') !== (r.narration ?? '')) {
      if (!edit.narration?.trim()) {
        throw new AppError('invalid_request', REVIEW_TEXT.narrationEmpty().text, {
          narration: 'write what the record is for',
        })
      }
      patch[RECORD_EDIT_FIELDS.narration] = edit.narration
    }
    return patch as RecordPatch
  }

  return {
    async 'review.list'(req): Promise<Calls['review.list']> {
      const p = ctx.activeBusiness().profile
      const fc = flagContext(p)
      const store = keeper().store
      const page = store.list(p.id, req.filter, req.offset, req.limit, fc)
      const unread = page.rows.filter((r) => r.fetchedAt === null).map((r) => r.uploadId)
      if (unread.length) keeper().readSoon(unread)
      return { items: page.rows.map((r) => item(r, fc)), total: page.total, counts: store.counts(p.id, fc) }
    },

    async 'review.get'(req): Promise<Calls['review.get']> {
      const { r, p } = find(req.uuid)
      return detail(await readIfUnread(r), p)
    },

    async 'review.save'(req): Promise<Calls['review.save']> {
      const { r, p } = find(req.uuid)
      if (r.deletedOnServer) return detail(r, p)
      const current = await readIfUnread(r)
      const d = detail(current, p)
      if (!d.editable) throw new AppError('not_editable', (d.notEditableReason ?? REVIEW_TEXT.readOnlyUnread()).text)
      const patch = patchOf(current, req)
      if (Object.keys(patch).length === 0) return d
      const client = await ctx.clientOf(p.id)
      const resource = current.kind === 'bill' ? 'bills' : 'expenses'
      let answer: Awaited<ReturnType<typeof client.patchExpense>>
      try {
        answer = current.kind === 'bill' ? await client.patchBill(r.uuid, patch) : await client.patchExpense(r.uuid, patch)
      } catch (e) {
        const f = asFailure(e)
        if (f.connection) throw new AppError('offline', REVIEW_TEXT.saveOffline().text)
        if (f.status === 404) {
          keeper().store.deletedOnServer(r.uuid, Date.now())
          return detail(keeper().store.byUuid(r.uuid, p.id) ?? r, p)
        }
        throw e
      }
      // What the server keeps now: read again (2.10 promises only uuid and narration in the answer);
      // when that read fails, what was sent and what the answer named.
      let read: RecordSummaryRead
      try {
        read = await client.getRecordSummary(resource, r.uuid)
      } catch {
        read = {
          uuid: r.uuid,
          kind: current.kind,
          vendor: req.vendor !== undefined ? req.vendor || null : (answer.contact ?? current.vendor),
          date: answer.date ?? req.date ?? current.date,
          total: req.total !== undefined ? Number(req.total).toFixed(2) : current.total,
          currency: answer.currency ?? req.currency ?? current.currency,
          narration: answer.narration ?? current.narration,
          fields: { ...(current.fields ?? {}), ...answer },
        }
      }
      keeper().keep(r.uuid, read, r.uploadId)
      return detail(keeper().store.byUuid(r.uuid, p.id) ?? r, p)
    },

    async 'review.setReviewed'(req): Promise<Calls['review.setReviewed']> {
      const { r, p } = find(req.uuid)
      keeper().setReviewed(r, req.reviewed)
      return detail(keeper().store.byUuid(r.uuid, p.id) ?? r, p)
    },

    async 'review.money'(): Promise<Calls['review.money']> {
      const p = ctx.activeBusiness().profile
      const fc = flagContext(p)
      const { from, to } = monthBounds()
      const store = keeper().store
      return monthMoney(store.spending(p.id, from, to), fc.currency, store.counts(p.id, fc).toReview)
    },

    async 'review.setCurrency'(req): Promise<Calls['review.setCurrency']> {
      const e = req.profileId ? ctx.mustEntry(req.profileId) : ctx.activeEntry()
      const updated = await e.manager.setCurrency(e.profile.id, req.currency)
      ctx.emitProfiles()
      ctx.emitReviewCounts()
      const view: ProfileView = { ...updated, demo: e.demo }
      return view
    },
  }
}
