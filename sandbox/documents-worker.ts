/**
 * The documents worker's entry (workers/entries.json "documents"): the emulator's document reading
 * (documents.ts) in a worker thread with the limits of DOCUMENT_LIMITS, away from the HTTP server.
 */
import { serve } from '../workers/serve'
import { documentText } from './documents'

serve({
  documentText: (file: { name: string | null; bytes: Uint8Array }) =>
    documentText({ name: file.name, bytes: Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength) }),
})
