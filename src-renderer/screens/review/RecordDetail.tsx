/**
 * One record on Review (issue 32): what it is and where it came from, its flags in plain words (a
 * possible duplicate opens the other record), the document beside the fields, and Mark reviewed
 * (its shortcut R, said in its title and aria-keyshortcuts).
 */
import { type MutableRefObject, useEffect, useState } from 'react'
import { defineMessages } from 'react-intl'
import { EDITABLE_KINDS, type ReviewDetail, type ReviewFlag, type ReviewItem } from '../../../contract/review'
import { BusyButton } from '../../components/Field'
import { bookdrop } from '../../lib/bridge'
import { formatDateTime } from '../../lib/format'
import { useI18n } from '../../lib/i18n'
import { settle } from '../../lib/result'
import { useApp } from '../../store'
import { DocumentPreview } from './DocumentPreview'
import { RecordForm } from './RecordForm'
import { codedText, kindWord, sourceWord } from './words'
import messages from './RecordDetail.messages.json' with { type: 'json' }

const m = defineMessages(messages.m)

type Loaded = { uuid: string; detail: ReviewDetail } | { uuid: string; error: string }

function Flag({ flag }: { flag: ReviewFlag }) {
  const intl = useI18n()
  const openReview = useApp((s) => s.openReview)
  const words = codedText(intl, flag.message)
  if (flag.code === 'possible_duplicate' && flag.duplicate.recordUuid) {
    const other = flag.duplicate.recordUuid
    return (
      <li className="flag">
        <button type="button" className="linklike" onClick={() => openReview(other, 'all')}>
          {words}
        </button>
      </li>
    )
  }
  return <li className="flag">{words}</li>
}

/**
 * The record `uuid` (its list item, when loaded, paints the fields at once; review.get brings the
 * rest). `markRef` is set to this record's Mark reviewed, for the screen's R shortcut.
 */
export function RecordDetail({
  uuid,
  item,
  markRef,
  onMarked,
}: {
  uuid: string
  item: ReviewItem | undefined
  markRef: MutableRefObject<(() => void) | null>
  onMarked: (d: ReviewDetail) => void
}) {
  const intl = useI18n()
  const applyDetail = useApp((s) => s.applyReviewDetail)
  const [loaded, setLoaded] = useState<Loaded | null>(null)
  const [marking, setMarking] = useState(false)
  const [markError, setMarkError] = useState<string | null>(null)

  useEffect(() => {
    let current = true
    setMarkError(null)
    void settle(bookdrop['review.get']({ uuid })).then((r) => {
      if (current) setLoaded(r.ok ? { uuid, detail: r.value } : { uuid, error: r.error.message })
    })
    return () => {
      current = false
    }
  }, [uuid])

  const mine = loaded?.uuid === uuid ? loaded : null
  const detail = mine && 'detail' in mine ? mine.detail : null
  const shown: ReviewItem | undefined = detail?.item ?? item
  const reviewed = shown?.record.reviewedAt ?? null

  const mark = async (to: boolean) => {
    if (marking || !shown) return
    setMarking(true)
    setMarkError(null)
    const r = await settle(bookdrop['review.setReviewed']({ uuid, reviewed: to }))
    setMarking(false)
    if (!r.ok) {
      setMarkError(intl.formatMessage(m.markFailed, { reason: r.error.message }))
      return
    }
    setLoaded({ uuid, detail: r.value })
    applyDetail(r.value)
    onMarked(r.value)
  }
  markRef.current = reviewed === null ? () => void mark(true) : null

  if (!shown) {
    return (
      <div className="review-detail">
        <p className="muted" role={mine ? 'alert' : 'status'}>
          {mine && 'error' in mine ? intl.formatMessage(m.loadFailed, { reason: mine.error }) : intl.formatMessage(m.loading)}
        </p>
      </div>
    )
  }
  const editable = detail ? detail.editable : EDITABLE_KINDS.includes(shown.record.kind) && !shown.record.deletedOnServer
  return (
    <article className="review-detail" aria-labelledby="review-detail-name">
      <header className="review-detail__head">
        <div className="review-detail__title">
          <h2 id="review-detail-name" dir="auto">
            {shown.name}
          </h2>
          <p className="muted">
            {intl.formatMessage(m.what, { kind: kindWord(intl, shown.record.kind), source: sourceWord(intl, shown.source) })}
          </p>
        </div>
        <div className="review-detail__actions">
          {reviewed === null ? (
            <BusyButton
              className="btn btn--primary"
              busy={marking}
              busyLabel={intl.formatMessage(m.marking)}
              title={intl.formatMessage(m.markTitle)}
              aria-keyshortcuts="R"
              onClick={() => void mark(true)}
            >
              {intl.formatMessage(m.mark)} <kbd aria-hidden="true">R</kbd>
            </BusyButton>
          ) : (
            <>
              <span className="success">{intl.formatMessage(m.reviewedAt, { when: formatDateTime(reviewed) })}</span>
              <BusyButton className="btn btn--small" busy={marking} onClick={() => void mark(false)}>
                {intl.formatMessage(m.unmark)}
              </BusyButton>
            </>
          )}
        </div>
      </header>
      {markError ? (
        <p className="form-error" role="alert">
          {markError}
        </p>
      ) : null}
      {detail?.readProblem ? (
        <p className="note note--warn">{intl.formatMessage(m.readProblem, { reason: codedText(intl, detail.readProblem) })}</p>
      ) : null}
      {shown.flags.length > 0 ? (
        <section className="review-flags" aria-label={intl.formatMessage(m.flags)}>
          <ul>
            {shown.flags.map((f, i) => (
              <Flag key={`${f.code}-${i}`} flag={f} />
            ))}
          </ul>
        </section>
      ) : null}
      <div className="review-detail__body">
        <DocumentPreview uploadId={shown.uploadId} />
        <RecordForm
          key={`${uuid}:${detail ? 'read' : 'item'}`}
          detail={{ item: shown, notEditableReason: detail?.notEditableReason ?? null }}
          editable={editable}
          onSaved={(d) => {
            setLoaded({ uuid, detail: d })
            applyDetail(d)
          }}
        />
      </div>
    </article>
  )
}
