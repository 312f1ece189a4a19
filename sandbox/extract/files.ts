/**
 * What the emulator's extraction reads from a file before its fields: how it is read (text, a
 * binary document, or refused) by its kind, and its bytes as text.
 */
import { fileKind } from '../../schemas'

/** An attachment after decoding (base64, raw) or fetching (url). */
export interface SourceFile {
  name: string | null
  bytes: Buffer
  /**
   * The text of a document (PDF, e-mail) read before extraction (documents.ts): null when it has
   * none (a scan, a damaged file); absent for other kinds, which are read from their bytes.
   */
  text?: string | null
}

/** Kinds read as text by extension. */
export const TEXT_KINDS: readonly string[] = ['txt', 'csv', 'md', 'json', 'html', 'xml', 'eml']
/** Kinds that are binary documents whatever their bytes look like (a tiny PDF can be pure ASCII). */
export const BINARY_KINDS: readonly string[] =
  'pdf jpg jpeg png webp gif bmp tif tiff heic xlsx xls ods doc docx odt'.split(' ')
/** Executables and archives: no pipeline reads them (bank upload already refuses them by its kind list). */
export const REFUSED_KINDS: readonly string[] =
  'exe dll so dylib bin msi bat cmd com sh ps1 jar apk dmg iso zip rar 7z tar gz tgz bz2 xz'.split(' ')

export type FileClass = 'text' | 'binary' | 'refused'

/** By extension first; a file with an unknown or no extension is text when it is NUL-free UTF-8. */
export function classifyFile(file: SourceFile): FileClass {
  const kind = fileKind(file.name ?? undefined)
  if (REFUSED_KINDS.includes(kind)) return 'refused'
  if (TEXT_KINDS.includes(kind)) return 'text'
  if (BINARY_KINDS.includes(kind)) return 'binary'
  return looksLikeText(file.bytes) ? 'text' : 'binary'
}

export function looksLikeText(bytes: Buffer): boolean {
  if (bytes.includes(0)) return false
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes)
    return true
  } catch {
    return false
  }
}

export function decodeText(bytes: Buffer): string {
  return new TextDecoder('utf-8').decode(bytes).replace(/^\uFEFF/, '')
}
