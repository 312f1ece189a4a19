/**
 * The document a record came from, beside its fields (issue 32): a PDF's pages drawn on canvases by
 * pdf.js (loaded on first use), a photo as an <img> of a `blob:` URL, a mail's text as text. Main
 * sends the bytes (review.document); the page never sees a path. When the first page or the photo
 * is painted, the frame says so (`data-painted` = the upload id), for the bench and the tests.
 */
import { useEffect, useRef, useState } from 'react'
import { defineMessages } from 'react-intl'
import type { ReviewDocument } from '../../../contract/calls/document'
import { useI18n } from '../../lib/i18n'
import { base64Bytes, loadDocument } from './documents'
// Types only: the module itself is imported when the first PDF is shown.
import type * as PdfLib from './pdf'
import messages from './DocumentPreview.messages.json' with { type: 'json' }

const m = defineMessages(messages.m)

type Loaded = { uploadId: number; doc: ReviewDocument } | { uploadId: number; error: string }

export function DocumentPreview({ uploadId }: { uploadId: number }) {
  const intl = useI18n()
  const [loaded, setLoaded] = useState<Loaded | null>(null)
  const frame = useRef<HTMLDivElement>(null)

  useEffect(() => {
    let current = true
    frame.current?.removeAttribute('data-painted')
    void loadDocument(uploadId).then((r) => {
      if (!current) return
      setLoaded(r.ok ? { uploadId, doc: r.value } : { uploadId, error: r.error.message })
    })
    return () => {
      current = false
    }
  }, [uploadId])

  const painted = () => frame.current?.setAttribute('data-painted', String(uploadId))
  const mine = loaded && loaded.uploadId === uploadId ? loaded : null
  let body
  if (!mine) {
    body = (
      <p className="preview__note" role="status">
        {intl.formatMessage(m.loading)}
      </p>
    )
  } else if ('error' in mine) {
    body = <p className="preview__note">{intl.formatMessage(m.failed, { reason: mine.error })}</p>
  } else if (mine.doc.kind === 'pdf') {
    body = <PdfPages key={uploadId} doc={mine.doc} onPainted={painted} />
  } else if (mine.doc.kind === 'image') {
    body = <Photo key={uploadId} doc={mine.doc} onPainted={painted} />
  } else {
    body = (
      <pre
        className="preview__text"
        dir="auto"
        tabIndex={0}
        aria-label={intl.formatMessage(m.text, { name: mine.doc.name })}
        ref={(el) => {
          if (el) painted()
        }}
      >
        {mine.doc.text}
      </pre>
    )
  }
  return (
    <div ref={frame} className="preview" role="region" aria-label={intl.formatMessage(m.region)}>
      {body}
    </div>
  )
}

function Photo({ doc, onPainted }: { doc: Extract<ReviewDocument, { kind: 'image' }>; onPainted: () => void }) {
  const intl = useI18n()
  const [url, setUrl] = useState<string | null>(null)
  useEffect(() => {
    const u = URL.createObjectURL(new Blob([base64Bytes(doc.base64)], { type: doc.mime }))
    setUrl(u)
    return () => URL.revokeObjectURL(u)
  }, [doc])
  if (!url) return null
  return (
    <img
      className="preview__img"
      src={url}
      alt={intl.formatMessage(m.photo, { name: doc.name })}
      decoding="async"
      onLoad={onPainted}
    />
  )
}

type PdfModule = typeof PdfLib
type Opened = { lib: PdfModule; pdf: PdfLib.PDFDocumentProxy }

function PdfPages({ doc, onPainted }: { doc: Extract<ReviewDocument, { kind: 'pdf' }>; onPainted: () => void }) {
  const intl = useI18n()
  const box = useRef<HTMLDivElement>(null)
  const [opened, setOpened] = useState<Opened | null>(null)
  const [error, setError] = useState<string | null>(null)
  const canvases = useRef<(HTMLCanvasElement | null)[]>([])
  const painted = useRef(onPainted)
  painted.current = onPainted

  // pdf.js (its chunk loaded on the first PDF) opens the bytes; the document is destroyed with the view.
  useEffect(() => {
    let live = true
    let destroy: (() => Promise<void>) | null = null
    void (async () => {
      try {
        const lib = await import('./pdf')
        if (!live) return
        const task = lib.openPdf(base64Bytes(doc.base64))
        destroy = task.destroy
        const pdf = await task.promise
        if (live) setOpened({ lib, pdf })
      } catch (e) {
        if (live) setError(e instanceof Error ? e.message : String(e))
      }
    })()
    return () => {
      live = false
      void destroy?.()
    }
  }, [doc])

  // Once its canvases are in the page: the first page, then the others in order.
  useEffect(() => {
    if (!opened) return
    const abort = new AbortController()
    const width = Math.max(100, (box.current?.clientWidth ?? 400) - 2)
    void (async () => {
      try {
        const count = Math.min(opened.pdf.numPages, opened.lib.MAX_PAGES)
        for (let n = 1; n <= count && !abort.signal.aborted; n++) {
          const canvas = canvases.current[n - 1]
          if (!canvas) break
          await opened.lib.drawPage(opened.pdf, n, canvas, width, abort.signal)
          if (n === 1 && !abort.signal.aborted) painted.current()
        }
      } catch (e) {
        if (!abort.signal.aborted) setError(e instanceof Error ? e.message : String(e))
      }
    })()
    return () => abort.abort()
  }, [opened])

  if (error) return <p className="preview__note">{intl.formatMessage(m.failed, { reason: error })}</p>
  const pages = opened?.pdf.numPages ?? 0
  const shown = opened ? Math.min(pages, opened.lib.MAX_PAGES) : 0
  return (
    <div ref={box} className="preview__pages">
      {opened ? null : (
        <p className="preview__note" role="status">
          {intl.formatMessage(m.loading)}
        </p>
      )}
      {Array.from({ length: shown }, (_, i) => (
        <canvas
          key={i}
          ref={(el) => {
            canvases.current[i] = el
          }}
          className="preview__page"
          role="img"
          aria-label={intl.formatMessage(m.page, { page: i + 1, pages, name: doc.name })}
        />
      ))}
      {pages > shown ? <p className="preview__note">{intl.formatMessage(m.morePages, { count: pages - shown })}</p> : null}
    </div>
  )
}
