/**
 * A JSON AI-create body whose attachments are files on disk, produced as a stream: each file is read
 * with fs.createReadStream and Base64-encoded chunk by chunk, so memory stays flat whatever the file
 * size, and the exact byte length is known up front (Content-Length) from the file sizes alone.
 *
 * Body layout: {...fields, "attachments":[{"type":"base64","name":"<name>","file":"<base64>"}, ...]}
 */
import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { type FileHandle, readFile } from 'node:fs/promises'

/** Length of the standard, padded Base64 of `bytes` bytes. */
export function base64Length(bytes: number): number {
  return 4 * Math.ceil(bytes / 3)
}

/**
 * Standard padded Base64 of a byte stream, chunk by chunk. Base64 maps 3 bytes to 4 characters, so
 * each chunk is encoded up to a multiple of 3 bytes and the 0 to 2 leftover bytes are carried into
 * the next one; the concatenated output equals Buffer.concat(all).toString('base64').
 */
export async function* base64Chunks(source: AsyncIterable<Uint8Array>): AsyncGenerator<Buffer> {
  let carry: Buffer = Buffer.alloc(0)
  for await (const chunk of source) {
    if (chunk.length === 0) continue
    // A view, not a copy: only the 0-2 leftover bytes are copied below.
    const view = Buffer.isBuffer(chunk)
      ? chunk
      : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
    const bytes = carry.length === 0 ? view : Buffer.concat([carry, view])
    const usable = bytes.length - (bytes.length % 3)
    // Copy the leftover: the source may reuse its buffer for the next chunk.
    carry = Buffer.from(bytes.subarray(usable))
    if (usable > 0) yield Buffer.from(bytes.subarray(0, usable).toString('base64'), 'ascii')
  }
  if (carry.length > 0) yield Buffer.from(carry.toString('base64'), 'ascii')
}

export interface BodyFile {
  path: string
  /** The attachment name sent to the server (original filename with extension). */
  name: string
  /** Size in bytes as measured before sending; the body length is computed from it. */
  size: number
  /**
   * The sha256 (hex) the bytes must have. The bytes streamed are hashed as they are read (no second
   * read); a mismatch fails the body before its last bytes, so the server never gets a whole request.
   */
  sha256?: string
  /** The file already opened by the caller: every read goes through it (see FileAttachmentInput). */
  handle?: FileHandle
}

/**
 * The bytes of an open file from its start, `chunkBytes` at a time, by position (the descriptor's
 * own offset is never used, so a retried body reads it whole again). One more byte than measured is
 * asked for, so a file that grew reads longer than measured.
 */
async function* handleChunks(handle: FileHandle, size: number, chunkBytes: number): AsyncGenerator<Buffer> {
  // One buffer for every read: each chunk is hashed and encoded (base64Chunks copies what it keeps)
  // before the next is asked for, so a 100 MB file leaves no 400 chunks of 256 KB behind for the collector.
  const buf = Buffer.allocUnsafe(Math.min(chunkBytes, size + 1))
  let at = 0
  for (;;) {
    const want = Math.min(buf.length, size + 1 - at)
    if (want <= 0) return
    const { bytesRead } = await handle.read(buf, 0, want, at)
    if (bytesRead === 0) return
    at += bytesRead
    yield buf.subarray(0, bytesRead)
  }
}

/**
 * A file read whole: through its open descriptor by position when there is one (one more byte is
 * asked for, so a file that grew reads longer than measured), else by path.
 */
async function readWhole(f: BodyFile): Promise<Buffer> {
  if (!f.handle) return readFile(f.path)
  const buf = Buffer.allocUnsafe(f.size + 1)
  let got = 0
  while (got < buf.length) {
    const { bytesRead } = await f.handle.read(buf, got, buf.length - got, got)
    if (bytesRead === 0) break
    got += bytesRead
  }
  return buf.subarray(0, got)
}

/** A file that did not read back as measured (it changed, vanished or could not be read). */
export class FileBodyError extends Error {
  override readonly name = 'FileBodyError'
  constructor(
    readonly kind: 'changed' | 'read' | 'superseded',
    readonly file: BodyFile,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options)
  }
}

/**
 * The same JSON body as streamedJsonBody, built whole in memory, for files of at most a few MiB in
 * all: each file is read once, checked against its measured size and (when given) its sha256, and
 * only then does the body exist; a file that changed is a FileBodyError and nothing is sent. Cheaper
 * than a stream for receipts-sized files (no stream machinery).
 *
 * The body is bytes, written once into a buffer of its exact length, which the transport hands to
 * the socket as they are (a string body was measured and UTF-8 encoded again: three more passes).
 */
export async function wholeJsonBody(
  fields: Record<string, unknown>,
  files: readonly BodyFile[],
): Promise<Buffer> {
  const { prefix, opens, close, suffix } = bodyParts(fields, files)
  const contents: Buffer[] = []
  for (const f of files) contents.push(await readChecked(f))
  let length = Buffer.byteLength(prefix) + Buffer.byteLength(suffix)
  files.forEach((f, i) => {
    length += Buffer.byteLength(opens[i] ?? '') + base64Length(f.size) + close.length
  })
  const body = Buffer.allocUnsafe(length)
  let at = body.write(prefix, 0, 'utf8')
  for (const [i, bytes] of contents.entries()) {
    at += body.write(opens[i] ?? '', at, 'utf8')
    at = writeBase64(body, at, bytes)
    at += body.write(close, at, 'latin1')
  }
  at += body.write(suffix, at, 'latin1')
  if (at !== length) throw new Error(`internal: body of ${at} bytes, ${length} expected`)
  return body
}

/**
 * Base64 of the bytes written into `body` at `at`, a slice at a time; returns the offset after it.
 * A receipt's whole Base64 as one string (270 KB for 200 KB) is larger than V8's largest ordinary
 * heap object: each one took a page mapping of its own, faulted in and unmapped again, per upload.
 * Slices of a multiple of 3 bytes encode to the same characters as the whole.
 */
function writeBase64(body: Buffer, at: number, bytes: Buffer): number {
  for (let from = 0; from < bytes.length; from += BASE64_SLICE) {
    at += body.write(bytes.toString('base64', from, Math.min(bytes.length, from + BASE64_SLICE)), at, 'latin1')
  }
  return at
}

/** Input bytes per Base64 slice: a multiple of 3, whose 64 KiB of characters stay an ordinary heap string. */
const BASE64_SLICE = 48 * 1024

/** A file's bytes, read once and checked against its measured size and (when given) its sha256. */
async function readChecked(f: BodyFile): Promise<Buffer> {
  let bytes: Buffer
  try {
    bytes = await readWhole(f)
  } catch (e) {
    throw new FileBodyError(
      'read',
      f,
      `Could not read "${f.name}" (${f.path}) while uploading: ${(e as Error).message}`,
      {
        cause: e,
      },
    )
  }
  if (bytes.length !== f.size) {
    throw new FileBodyError(
      'changed',
      f,
      `"${f.name}" (${f.path}) changed while it was being uploaded (${f.size} bytes measured, ${bytes.length} read); try again once the file is complete.`,
    )
  }
  if (f.sha256 !== undefined && createHash('sha256').update(bytes).digest('hex') !== f.sha256) {
    throw new FileBodyError(
      'superseded',
      f,
      `"${f.name}" (${f.path}) changed on disk after it was queued: the bytes read are not the ones recorded; nothing was sent.`,
    )
  }
  return bytes
}

/** The JSON around the Base64 of each file: `prefix`, then per file `opens[i]` Base64 `close`, then `suffix`. */
function bodyParts(
  fields: Record<string, unknown>,
  files: readonly BodyFile[],
): { prefix: string; opens: string[]; close: string; suffix: string } {
  const head = JSON.stringify(fields)
  return {
    prefix: head === '{}' ? '{"attachments":[' : `${head.slice(0, -1)},"attachments":[`,
    opens: files.map(
      (f, i) => `${i > 0 ? ',' : ''}{"type":"base64","name":${JSON.stringify(f.name)},"file":"`,
    ),
    close: '"}',
    suffix: ']}',
  }
}

export interface StreamedJsonBody {
  /** Exact byte length of the body. */
  contentLength: number
  /** The body; pull-based, so reading never runs ahead of the network. */
  stream: ReadableStream<Uint8Array>
  /** Set when the stream failed because of a file (fetch reports only "fetch failed"). */
  failure(): FileBodyError | undefined
}

/**
 * Builds the streamed body. `fields` are the JSON fields before `attachments` (prompt,
 * text_attachment, process_type); `readChunkBytes` is the read size of a streamed file (tests use tiny
 * values); a file of at most `wholeReadBytes` is read in one call instead (cheaper than a stream).
 */
export function streamedJsonBody(
  fields: Record<string, unknown>,
  files: readonly BodyFile[],
  readChunkBytes = 64 * 1024,
  /** Called as body bytes are handed to the network: (sent, total). */
  onProgress?: (sent: number, total: number) => void,
  wholeReadBytes = readChunkBytes,
): StreamedJsonBody {
  const { prefix, opens, close, suffix } = bodyParts(fields, files)

  let contentLength = Buffer.byteLength(prefix) + Buffer.byteLength(suffix)
  files.forEach((f, i) => {
    contentLength += Buffer.byteLength(opens[i] ?? '') + base64Length(f.size) + Buffer.byteLength(close)
  })

  let failure: FileBodyError | undefined

  /**
   * A small file is one read (cheaper than a stream); a large one streams, so memory stays flat. A
   * file opened by the caller is read through its descriptor whatever its size: its path may lead
   * elsewhere by now (a link swapped in after the check).
   */
  function source(f: BodyFile): AsyncIterable<Buffer> {
    if (f.size > wholeReadBytes) {
      if (f.handle) return handleChunks(f.handle, f.size, readChunkBytes)
      return createReadStream(f.path, { highWaterMark: readChunkBytes })
    }
    return (async function* () {
      yield await readWhole(f)
    })()
  }

  async function* fileBytes(f: BodyFile): AsyncGenerator<Uint8Array> {
    let read = 0
    const hash = f.sha256 === undefined ? null : createHash('sha256')
    try {
      for await (const chunk of source(f)) {
        read += chunk.length
        if (read > f.size) break
        hash?.update(chunk)
        yield chunk
      }
    } catch (e) {
      throw new FileBodyError(
        'read',
        f,
        `Could not read "${f.name}" (${f.path}) while uploading: ${(e as Error).message}`,
        {
          cause: e,
        },
      )
    }
    if (read !== f.size) {
      throw new FileBodyError(
        'changed',
        f,
        `"${f.name}" (${f.path}) changed while it was being uploaded (${f.size} bytes measured, ` +
          `${read > f.size ? 'more' : read} read); try again once the file is complete.`,
      )
    }
    // Checked before the caller yields the file's last Base64 characters and the body's closing
    // bytes: on a mismatch the request never becomes a complete (parseable) body.
    if (hash && hash.digest('hex') !== f.sha256) {
      throw new FileBodyError(
        'superseded',
        f,
        `"${f.name}" (${f.path}) changed on disk after it was queued: the bytes read are not the ones recorded; nothing was created from them.`,
      )
    }
  }

  async function* parts(): AsyncGenerator<Uint8Array> {
    yield Buffer.from(prefix)
    for (const [i, f] of files.entries()) {
      yield Buffer.from(opens[i] ?? '')
      yield* base64Chunks(fileBytes(f))
      yield Buffer.from(close)
    }
    yield Buffer.from(suffix)
  }

  const it = parts()
  let sent = 0
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await it.next()
        if (next.done) controller.close()
        else {
          controller.enqueue(next.value)
          sent += next.value.byteLength
          onProgress?.(sent, contentLength)
        }
      } catch (e) {
        if (e instanceof FileBodyError) failure = e
        controller.error(e)
      }
    },
    async cancel() {
      await it.return(undefined)
    },
  })

  return { contentLength, stream, failure: () => failure }
}
