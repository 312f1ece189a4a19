/**
 * Names for storage (issue 23): the name a file sent as bytes (a browser drop, the demo's samples,
 * a bank statement) is saved under in `<dataDir>/dropped/<date>/`, which is also the name the
 * history shows. The name came from anywhere (a sender, a shared folder), so it is made safe:
 *
 * - one name, never a path: no separators, no `..`, no leading dot, no characters a file system
 *   refuses, not a Windows device name;
 * - bidirectional and other control characters replaced (U+202E turns `invoice‮fdp.exe` into what
 *   looks like `invoiceexe.pdf`), as are zero-width and line separators;
 * - at most 255 bytes of UTF-8 (what ext4, APFS and NTFS take for one name), cut between whole
 *   characters (grapheme clusters: an accent or an emoji is never split), the extension kept.
 *
 * Self-contained on purpose (display escaping for notifications and headless lines lives apart).
 */
import { extname } from 'node:path'

/** Bytes of UTF-8 one stored name may take (one path component on ext4, APFS, NTFS). */
export const MAX_NAME_BYTES = 255
/** Bytes of an extension kept as one (longer, it is part of the name). */
const MAX_EXTENSION_BYTES = 24
/** What replaces a character that cannot be stored or shown as it is. */
const REPLACEMENT = '_'

/**
 * Control characters (C0, DEL, C1), bidirectional marks, embeddings, overrides and isolates, the
 * zero-width space and word joiners, line and paragraph separators, the byte-order mark: never
 * stored, never shown. The zero-width (non-)joiners stay: emoji and several scripts are written
 * with them.
 */
export const UNSAFE_CHARACTERS =
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is replaced
  /[\u0000-\u001f\u007f-\u009f\u061c\u180e\u200b\u200e\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g

const encoder = new TextEncoder()

/** Bytes of `s` in UTF-8. */
export function utf8Bytes(s: string): number {
  return encoder.encode(s).length
}

/** The longest start of `s`, in whole grapheme clusters, that fits `maxBytes` of UTF-8. */
export function truncateBytes(s: string, maxBytes: number): string {
  if (utf8Bytes(s) <= maxBytes) return s
  let out = ''
  let bytes = 0
  for (const { segment } of new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(s)) {
    const n = utf8Bytes(segment)
    if (bytes + n > maxBytes) break
    out += segment
    bytes += n
  }
  return out
}

/** Splits a name into its stem and its extension (with the dot), the extension only when short. */
function splitExtension(name: string): [stem: string, ext: string] {
  const ext = extname(name)
  if (!ext || ext === name || utf8Bytes(ext) > MAX_EXTENSION_BYTES) return [name, '']
  return [name.slice(0, -ext.length), ext]
}

/**
 * The name `raw` is stored (and shown) under: see above. Never empty ("file"), never a path, at
 * most `maxBytes` bytes of UTF-8 with its extension kept.
 */
export function storedName(raw: string, maxBytes = MAX_NAME_BYTES): string {
  let n = String(raw).normalize('NFC').replace(UNSAFE_CHARACTERS, REPLACEMENT)
  n = n.replace(/[\\/]/g, REPLACEMENT).replace(/[<>:"|?*]/g, REPLACEMENT)
  n = n.replace(/\.{2,}/g, '.')
  n = n
    .trim()
    .replace(/^[.\s]+/, '')
    .replace(/[.\s]+$/, '')
  if (/^(con|prn|aux|nul|com\d|lpt\d)(\.|$)/i.test(n)) n = `_${n}`
  if (n === '') n = 'file'
  return fitBytes(n, '', maxBytes)
}

/** `name` with ` (n)` before its extension, still within `maxBytes` (the stem is shortened). */
export function numberedStoredName(name: string, n: number, maxBytes = MAX_NAME_BYTES): string {
  return n <= 1 ? fitBytes(name, '', maxBytes) : fitBytes(name, ` (${n})`, maxBytes)
}

/** `stem + suffix + extension` of `name`, the stem cut so the whole fits `maxBytes`. */
function fitBytes(name: string, suffix: string, maxBytes: number): string {
  const [stem, ext] = splitExtension(name)
  const room = maxBytes - utf8Bytes(suffix) - utf8Bytes(ext)
  const cut = truncateBytes(stem, Math.max(1, room)).replace(/[.\s]+$/, '')
  return `${cut || 'file'}${suffix}${ext}`
}
