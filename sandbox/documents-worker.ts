/**
 * The documents worker's entry (workers/entries.json "documents"): the emulator's document reading
 * and extraction (documents.ts, extract.ts) in a worker thread with the limits of DOCUMENT_LIMITS,
 * away from the HTTP server.
 */
import { serve } from '../workers/serve'
import { documentText } from './documents'
import { type ExtractInput, type SourceFile, extract } from './extract'

/** Bytes as they arrive here (a Buffer is cloned as a plain Uint8Array), as a Buffer again, without a copy. */
function buffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
}

serve({
  documentText: (file: { name: string | null; bytes: Uint8Array }) => documentText({ name: file.name, bytes: buffer(file.bytes) }),
  extract: (input: ExtractInput) =>
    extract({ ...input, files: input.files.map((f): SourceFile => ({ ...f, bytes: buffer(f.bytes) })) }),
})
