/**
 * pdf.js for the Review preview, loaded only when a PDF is first shown (a dynamic import of this
 * module): the library and its worker are files of the app's own build (the worker's URL by Vite's
 * `?url`), so the CSP stays `script-src 'self'` (pdf.js 5 needs no eval). Pages are drawn on
 * canvases; no text or annotation layer (a preview, not a reader).
 */
import { GlobalWorkerOptions, PDFWorker, getDocument } from 'pdfjs-dist'
import type { PDFDocumentProxy } from 'pdfjs-dist'
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url'

GlobalWorkerOptions.workerSrc = workerUrl

/** At most this many pages are drawn (a long statement's first pages; the rest say how many more). */
export const MAX_PAGES = 20

export type { PDFDocumentProxy }

/**
 * One worker for every document: pdf.js would otherwise start a worker per document (its 1.2 MB
 * script compiled again), which cost 200–300 ms of every record moved to.
 */
let worker: PDFWorker | null = null

/** Opens a PDF from its bytes (which pdf.js takes over: pass a copy you do not need). */
export function openPdf(bytes: Uint8Array): { promise: Promise<PDFDocumentProxy>; destroy: () => Promise<void> } {
  worker ??= new PDFWorker()
  const task = getDocument({
    data: bytes,
    worker,
    // Nothing fetched: no CMaps, standard fonts or wasm from elsewhere (the CSP allows none).
    useSystemFonts: true,
    isOffscreenCanvasSupported: true,
    enableXfa: false,
    stopAtErrors: false,
  })
  return { promise: task.promise, destroy: () => task.destroy() }
}

/**
 * Draws page `n` (1-based) on `canvas`, `cssWidth` CSS pixels wide (sharp on this screen's pixel
 * ratio). Resolves when painted; `cancel` stops a render no longer wanted.
 */
export async function drawPage(
  doc: PDFDocumentProxy,
  n: number,
  canvas: HTMLCanvasElement,
  cssWidth: number,
  signal: AbortSignal,
): Promise<void> {
  const page = await doc.getPage(n)
  if (signal.aborted) return
  const base = page.getViewport({ scale: 1 })
  const ratio = Math.min(window.devicePixelRatio || 1, 2)
  const scale = Math.max(0.1, cssWidth / base.width)
  const viewport = page.getViewport({ scale: scale * ratio })
  canvas.width = Math.floor(viewport.width)
  canvas.height = Math.floor(viewport.height)
  canvas.style.width = `${Math.floor(viewport.width / ratio)}px`
  canvas.style.height = `${Math.floor(viewport.height / ratio)}px`
  const task = page.render({ canvas, viewport })
  const stop = () => task.cancel()
  signal.addEventListener('abort', stop)
  try {
    await task.promise
  } catch (e) {
    if (!signal.aborted) throw e
  } finally {
    signal.removeEventListener('abort', stop)
  }
}
