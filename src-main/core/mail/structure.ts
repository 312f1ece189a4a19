/**
 * Which parts of a mail are receipts, decided from its structure (IMAP BODYSTRUCTURE) before any
 * byte is downloaded (issue 24):
 * - every part of an accepted kind that is an attachment, or inline with a file name (Apple Mail
 *   and phones send PDFs inline);
 * - not an image the HTML body shows by `cid:` that is under 20 KB: a logo or a signature;
 * - not the body's own text (its text can be sent instead, when the rule says so).
 * Forwarded mails (message/rfc822) are looked into: a receipt forwarded as an attachment counts.
 * The other document-like parts (a kind the rule does not take) are listed too: each is recorded
 * as skipped with its reason, so none vanishes (issue 31).
 */
import { extname } from 'node:path'
import { fileKind } from '../../../schemas/routes'
import type { MailPart } from './provider'

/** The largest body part read (a receipt's HTML is tens of KB); larger ones are cut to this. */
export const MAX_BODY_BYTES = 2 * 1024 * 1024

/** An image the HTML body shows (`cid:`) under this many bytes is a logo or a signature. */
export const LOGO_MAX_BYTES = 20 * 1024

/** A file kind for a MIME type, when the part's name says none. */
const KIND_OF_TYPE: Record<string, string> = {
  'application/pdf': 'pdf',
  'image/jpeg': 'jpg',
  'image/jpg': 'jpg',
  'image/pjpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/bmp': 'bmp',
  'image/tiff': 'tiff',
  'image/heic': 'heic',
  'image/heif': 'heic',
  'text/csv': 'csv',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'application/vnd.ms-excel': 'xls',
  'text/plain': 'txt',
  'message/rfc822': 'eml',
}

const IMAGE_KINDS = new Set(['jpg', 'jpeg', 'png', 'webp', 'gif', 'bmp', 'tif', 'tiff', 'heic'])

/** A receipt part: what to download and the file name it is sent under. */
export interface ReceiptPart {
  part: string
  /** The file name, with an extension of its kind (added from the MIME type when missing). */
  name: string
  kind: string
  /** Encoded size (BODYSTRUCTURE). */
  size: number
}

/** The bytes a part decodes to, about (Base64: 3 bytes per 4 characters, less line breaks). */
export function decodedSize(p: Pick<MailPart, 'size' | 'encoding'>): number {
  if (p.encoding === 'base64') return Math.floor((p.size * 3) / 4 / (78 / 76))
  return p.size
}

function leaves(p: MailPart, out: { part: MailPart; related: boolean }[] = [], related = false): typeof out {
  if (p.children?.length) {
    const rel = related || p.type === 'multipart/related'
    for (const c of p.children) leaves(c, out, rel)
  } else {
    out.push({ part: p, related })
  }
  return out
}

/** The kind of a part: from its file name, else from its MIME type ('' when neither says). */
export function partKind(p: Pick<MailPart, 'filename' | 'type'>): string {
  const byName = p.filename ? fileKind(p.filename) : ''
  return byName || KIND_OF_TYPE[p.type] || ''
}

/** Content-IDs an HTML body shows (`src="cid:…"`), lower case. */
export function referencedCids(html: string): Set<string> {
  const out = new Set<string>()
  for (const m of html.matchAll(/cid:([^"'\s>)]+)/gi)) {
    let id = m[1]!
    try {
      id = decodeURIComponent(id)
    } catch {
      // keep it as written
    }
    out.add(id.toLowerCase())
  }
  return out
}

/** True when the part may be a logo: an image with a Content-ID, small. Whether the HTML shows it decides. */
export function maybeLogo(p: MailPart): boolean {
  return IMAGE_KINDS.has(partKind(p)) && !!p.contentId && decodedSize(p) < LOGO_MAX_BYTES
}

/**
 * The receipts of a mail. `cids`: the Content-IDs its HTML body shows, when it was read; without it,
 * a small image with a Content-ID inside multipart/related is taken as shown by the HTML.
 */
export function receiptParts(
  structure: MailPart | null,
  acceptedKinds: readonly string[],
  cids: Set<string> | null = null,
): ReceiptPart[] {
  return documentParts(structure, acceptedKinds, cids).receipts
}

/** Signatures of a signed mail: attached, but never a document a person sent. */
const SIGNATURE_TYPES = new Set([
  'application/pkcs7-signature',
  'application/x-pkcs7-signature',
  'application/pgp-signature',
  'application/pgp-encrypted',
])

/**
 * Every part of a mail that looks like a document (attached, or inline with a file name; not the
 * body's text, a logo or a signature): the receipts (of a kind the rule accepts), and the others,
 * which are not sent but each recorded as skipped with its reason (issue 31), so none vanishes.
 */
export function documentParts(
  structure: MailPart | null,
  acceptedKinds: readonly string[],
  cids: Set<string> | null = null,
): { receipts: ReceiptPart[]; others: ReceiptPart[] } {
  const receipts: ReceiptPart[] = []
  const others: ReceiptPart[] = []
  if (!structure) return { receipts, others }
  const usedNames = new Set<string>()
  for (const { part: p, related } of leaves(structure)) {
    if (p.type.startsWith('multipart/')) continue
    const disposition = p.disposition?.toLowerCase() ?? null
    const named = !!p.filename?.trim()
    // The body's own text and HTML are never a receipt by themselves.
    if ((p.type === 'text/plain' || p.type === 'text/html') && disposition !== 'attachment' && !named)
      continue
    const counts = disposition === 'attachment' || named
    if (!counts || SIGNATURE_TYPES.has(p.type)) continue
    const kind = partKind(p)
    if (maybeLogo(p)) {
      const cid = p.contentId!.toLowerCase()
      const shown = cids ? cids.has(cid) : related
      if (shown) continue
    }
    const accepted = !!kind && acceptedKinds.includes(kind)
    const name = uniqueName(kind ? receiptName(p, kind) : p.filename?.trim() || 'attachment', usedNames)
    ;(accepted ? receipts : others).push({ part: p.part || '1', name, kind, size: p.size })
  }
  return { receipts, others }
}

/** The part's file name, with the extension of its kind when the name has none. */
function receiptName(p: MailPart, kind: string): string {
  const raw = p.filename?.trim() || 'attachment'
  return extname(raw) ? raw : `${raw}.${kind}`
}

function uniqueName(name: string, used: Set<string>): string {
  let n = name
  for (let i = 2; used.has(n.toLowerCase()); i++) {
    const ext = extname(name)
    n = `${name.slice(0, name.length - ext.length)} (${i})${ext}`
  }
  used.add(n.toLowerCase())
  return n
}

/** The body's text parts: the plain text when there is one, else the HTML (converted later). */
export function bodyTextPart(structure: MailPart | null): MailPart | null {
  if (!structure) return null
  const all = leaves(structure)
    .map((l) => l.part)
    .filter(
      (p) =>
        (p.type === 'text/plain' || p.type === 'text/html') &&
        p.disposition?.toLowerCase() !== 'attachment' &&
        !p.filename,
    )
  return all.find((p) => p.type === 'text/plain') ?? all.find((p) => p.type === 'text/html') ?? null
}

/** The HTML body part, read to tell which images it shows. */
export function htmlPart(structure: MailPart | null): MailPart | null {
  if (!structure) return null
  return (
    leaves(structure)
      .map((l) => l.part)
      .find((p) => p.type === 'text/html' && p.disposition?.toLowerCase() !== 'attachment') ?? null
  )
}
