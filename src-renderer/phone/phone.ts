/**
 * The phone's page (issue 25): pairs with the desktop through the link's one-time token, waits for
 * the person's Allow on the desktop, then sends photos one by one with their progress and what
 * happened to each. No framework: a few DOM nodes, so the first load stays a few kilobytes.
 *
 * Each photo gets its own id before its first attempt; a failed attempt is sent again with the same
 * id, so the desktop answers the first outcome instead of making a second row. The page may run
 * over plain HTTP (not a secure context): it uses only what browsers allow there.
 */
import {
  MAX_DOCUMENT_PAGES,
  MAX_PHONE_PHOTO_BYTES,
  type PhoneOutcome,
  type PhonePhotoProgress,
  type PhoneRefusal,
  type PhoneSessionView,
  type PhoneTarget,
} from '../../contract/phone'
import { follower } from './follow'
import { loadWords, m, words } from './words'

/** What a phone may send its photos as, in the phone's language. */
const TARGETS: Record<PhoneTarget, (typeof m)[keyof typeof m]> = {
  expenses: m.targetExpenses,
  bills: m.targetBills,
  invoices: m.targetInvoices,
  income: m.targetIncome,
}

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T
const status = $<HTMLParagraphElement>('status')
const code = $<HTMLParagraphElement>('code')
const form = $<HTMLFormElement>('send')
const camera = $<HTMLInputElement>('camera')
const target = $<HTMLSelectElement>('target')
const note = $<HTMLTextAreaElement>('note')
const oneDoc = $<HTMLInputElement>('onedoc')
const doc = $<HTMLDivElement>('doc')
const docCount = $<HTMLParagraphElement>('doc-count')
const docSend = $<HTMLButtonElement>('doc-send')
const docClear = $<HTMLButtonElement>('doc-clear')
const sent = $<HTMLElement>('sent')
const list = $<HTMLUListElement>('photos')

const TARGET_KEY = 'bookdrop.phone.target'
const RETRY_DELAYS_MS = [1000, 3000, 9000]

/** An id of 128 random bits (crypto.randomUUID needs a secure context; getRandomValues does not). */
function newId(): string {
  const b = new Uint8Array(16)
  crypto.getRandomValues(b)
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('')
}

function say(text: string): void {
  status.textContent = text
}

function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`
}

async function answer<T>(res: Response): Promise<T | PhoneRefusal> {
  try {
    return (await res.json()) as T | PhoneRefusal
  } catch {
    return { error: words().formatMessage(m.answered, { status: res.status }), kind: 'request' }
  }
}

function isRefusal(v: unknown): v is PhoneRefusal {
  return typeof v === 'object' && v !== null && 'error' in v
}

// ---- pairing --------------------------------------------------------------------------------

function showSession(s: PhoneSessionView): void {
  code.hidden = false
  code.textContent = s.code
  code.setAttribute('aria-label', words().formatMessage(m.codeLabel, { digits: s.code.split('').join(' ') }))
  if (s.state === 'pending') {
    say(words().formatMessage(m.checkCode, { code: s.code }))
    form.hidden = true
    return
  }
  code.hidden = true
  say(s.business ? words().formatMessage(m.pairedTo, { business: s.business }) : words().formatMessage(m.paired))
  follow.start()
  if (!form.hidden) return
  target.replaceChildren(
    ...s.targets.map((t) => {
      const o = document.createElement('option')
      o.value = t
      o.textContent = words().formatMessage(TARGETS[t])
      return o
    }),
  )
  const saved = localStorage.getItem(TARGET_KEY)
  if (saved && (s.targets as readonly string[]).includes(saved)) target.value = saved
  form.hidden = false
}

function stopped(r: PhoneRefusal): void {
  follow.stop()
  form.hidden = true
  code.hidden = true
  say(r.error)
}

async function waitForAllow(): Promise<void> {
  for (;;) {
    let res: Response
    try {
      res = await fetch('/state?wait=1', { cache: 'no-store' })
    } catch {
      say(words().formatMessage(m.unreachable))
      await new Promise((r) => setTimeout(r, 3000))
      continue
    }
    const body = await answer<PhoneSessionView>(res)
    if (isRefusal(body)) return stopped(body)
    showSession(body)
    if (body.state === 'allowed') return
  }
}

async function start(): Promise<void> {
  const token = /^#t=([A-Za-z0-9_-]{16,64})$/.exec(location.hash)?.[1]
  if (token) {
    // The token is spent now: it must not stay in the address bar or the history.
    history.replaceState(null, '', '/')
    let res: Response
    try {
      res = await fetch('/pair', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ token }),
        cache: 'no-store',
      })
    } catch {
      return say(words().formatMessage(m.unreachableScan))
    }
    const body = await answer<PhoneSessionView>(res)
    if (isRefusal(body)) return stopped(body)
    showSession(body)
    if (body.state === 'pending') await waitForAllow()
    return
  }
  // No link: a page reloaded in a session that may still be valid.
  await waitForAllow()
}

// ---- photos ---------------------------------------------------------------------------------

interface Item {
  li: HTMLLIElement
  what: HTMLSpanElement
  bar: HTMLProgressElement
}

function item(name: string, size: number): Item {
  sent.hidden = false
  const li = document.createElement('li')
  const n = document.createElement('span')
  n.className = 'photo__name'
  n.textContent = `${name} · ${sizeText(size)}`
  const what = document.createElement('span')
  what.className = 'photo__what'
  what.textContent = words().formatMessage(m.waiting)
  const bar = document.createElement('progress')
  bar.max = 100
  bar.value = 0
  bar.setAttribute('aria-label', words().formatMessage(m.sendingName, { name }))
  li.append(n, bar, what)
  list.prepend(li)
  return { li, what, bar }
}

function finish(it: Item, kind: PhoneOutcome['status'] | 'failed', text: string): void {
  it.bar.remove()
  it.li.className = `photo--${kind}`
  const label = { sent: m.sent, duplicate: m.duplicate, skipped: m.skipped, received: m.received, failed: m.failed }[kind]
  it.what.textContent = words().formatMessage(m.outcome, {
    what: words().formatMessage(label),
    detail: `${text.charAt(0).toLocaleUpperCase()}${text.slice(1)}`,
  })
}

// ---- what became of each photo (GET /photos) ------------------------------------------------------

/** The list's lines of each photo followed, by its id. */
const followed = new Map<string, Item[]>()

function progressed(p: PhonePhotoProgress): void {
  for (const it of followed.get(p.id) ?? []) {
    it.li.className = `photo--${p.state}`
    it.what.textContent = p.message
  }
  if (p.final) followed.delete(p.id)
}

const follow = follower({ show: progressed, ended: (r) => stopped(r) })

interface Upload {
  file: File
  id: string
  target: string
  note: string
  doc?: { id: string; page: number; pages: number }
  items: Item[]
}

/** One attempt: the outcome, a refusal (definite), or null (the network failed: try again). */
function attempt(u: Upload): Promise<PhoneOutcome | PhoneRefusal | null> {
  const q = new URLSearchParams({ id: u.id, target: u.target, name: u.file.name.slice(0, 200) })
  if (u.note) q.set('note', u.note)
  if (u.doc) {
    q.set('doc', u.doc.id)
    q.set('page', String(u.doc.page))
    q.set('pages', String(u.doc.pages))
  }
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest()
    xhr.open('POST', `/upload?${q}`)
    xhr.setRequestHeader('Content-Type', u.file.type || 'application/octet-stream')
    xhr.timeout = 5 * 60_000
    xhr.upload.onprogress = (e) => {
      if (!e.lengthComputable) return
      for (const it of u.items) it.bar.value = Math.round((e.loaded / e.total) * 100)
    }
    xhr.onload = () => {
      let body: unknown = null
      try {
        body = JSON.parse(xhr.responseText)
      } catch {
        // not JSON: a proxy or a captive portal
      }
      if (xhr.status === 200 && body && typeof body === 'object' && 'status' in body) return resolve(body as PhoneOutcome)
      if (isRefusal(body)) return resolve(body)
      resolve(xhr.status >= 500 || xhr.status === 0 ? null : { error: words().formatMessage(m.answered, { status: xhr.status }), kind: 'request' })
    }
    xhr.onerror = () => resolve(null)
    xhr.ontimeout = () => resolve(null)
    xhr.send(u.file)
  })
}

async function send(u: Upload): Promise<void> {
  for (const it of u.items) it.what.textContent = words().formatMessage(m.sending)
  for (let i = 0; ; i++) {
    const r = await attempt(u)
    if (r && !isRefusal(r)) {
      for (const it of u.items) finish(it, r.status, r.message)
      if (r.upload !== undefined) {
        followed.set(u.id, u.items)
        follow.add(u.id)
      }
      return
    }
    if (r) {
      for (const it of u.items) finish(it, 'failed', r.error)
      if (r.kind === 'session') stopped(r)
      return
    }
    const wait = RETRY_DELAYS_MS[i]
    if (wait === undefined) break
    for (const it of u.items) it.what.textContent = words().formatMessage(m.retrying, { seconds: wait / 1000 })
    await new Promise((res) => setTimeout(res, wait))
  }
  for (const it of u.items) {
    finish(it, 'failed', words().formatMessage(m.lost))
    const again = document.createElement('button')
    again.type = 'button'
    again.textContent = words().formatMessage(m.tryAgain)
    again.onclick = () => {
      again.remove()
      it.li.className = ''
      it.li.append(it.bar)
      enqueue({ ...u, items: [it] })
    }
    it.li.append(again)
  }
}

/** Photos go one at a time, in the order they were chosen. */
let queue: Promise<void> = Promise.resolve()
function enqueue(u: Upload): void {
  queue = queue.then(() => send(u))
}

function tooLarge(f: File): boolean {
  if (f.size <= MAX_PHONE_PHOTO_BYTES) return false
  finish(item(f.name, f.size), 'skipped', words().formatMessage(m.tooLarge, { mb: MAX_PHONE_PHOTO_BYTES / 1024 / 1024 }))
  return true
}

// ---- one document -----------------------------------------------------------------------------

let pages: { file: File; it: Item }[] = []

function showPages(): void {
  doc.hidden = !oneDoc.checked
  docCount.textContent = pages.length
    ? words().formatMessage(m.pagesReady, { count: pages.length, max: MAX_DOCUMENT_PAGES })
    : words().formatMessage(m.noPage)
  docSend.disabled = pages.length === 0
  docClear.disabled = pages.length === 0
}

function sendDocument(): void {
  const docId = newId()
  const all = pages
  pages = []
  showPages()
  all.forEach((p, i) =>
    enqueue({
      file: p.file,
      id: newId(),
      target: target.value,
      note: note.value,
      doc: { id: docId, page: i + 1, pages: all.length },
      items: [p.it],
    }),
  )
}

// ---- wiring -----------------------------------------------------------------------------------

camera.addEventListener('change', () => {
  const files = [...(camera.files ?? [])]
  camera.value = ''
  for (const f of files) {
    if (tooLarge(f)) continue
    if (oneDoc.checked) {
      if (pages.length >= MAX_DOCUMENT_PAGES) {
        finish(item(f.name, f.size), 'skipped', words().formatMessage(m.tooManyPages, { max: MAX_DOCUMENT_PAGES }))
        continue
      }
      const it = item(f.name, f.size)
      it.what.textContent = words().formatMessage(m.pageOf, { n: pages.length + 1 })
      pages.push({ file: f, it })
    } else {
      enqueue({ file: f, id: newId(), target: target.value, note: note.value, items: [item(f.name, f.size)] })
    }
  }
  showPages()
})
target.addEventListener('change', () => localStorage.setItem(TARGET_KEY, target.value))
oneDoc.addEventListener('change', showPages)
docSend.addEventListener('click', sendDocument)
docClear.addEventListener('click', () => {
  for (const p of pages) p.it.li.remove()
  pages = []
  showPages()
})
form.addEventListener('submit', (e) => e.preventDefault())

// The page speaks the phone's language before it says anything else.
void loadWords().then(start)
