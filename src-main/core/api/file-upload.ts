/**
 * The files of an AI create from disk (BookkeepingClient.aiCreateFromFiles): each one checked
 * before anything is sent (a path, a regular file within the size limit, still the version that was
 * recorded), then the JSON body they make: built whole for receipt-sized files, streamed chunk by
 * chunk above WHOLE_BODY_MAX_BYTES. Every failure is the transport's ApiError (secrets redacted).
 */
import { type FileHandle, stat } from 'node:fs/promises'
import { basename } from 'node:path'
import { CLIENT_ERROR_CODES } from './errors'
import type { ApiError } from './errors'
import { type BodyFile, FileBodyError, wholeJsonBody } from './stream-body'
import type { Transport } from './transport'
import { errnoCode, isRecord, sizeText } from '../util'

export interface FileAttachmentInput {
  path: string
  /** Name sent to the server, with extension (type detection); defaults to the file's own name. */
  name?: string
  /**
   * The version of the file that was recorded (size, mtime, sha256). When given, nothing is sent if
   * the file's size or mtime differs, and the request is aborted before its body is complete if the
   * sha256 of the bytes streamed differs: error `file_superseded` either way.
   */
  expect?: { size: number; mtimeMs: number; sha256: string }
  /**
   * The file, already opened by the caller (who closes it once the call returned): measured and read
   * through this descriptor instead of opening `path` again, by position, so a retried body reads it
   * whole again, whatever its size (a large one streams from it). `path` only names it in messages.
   */
  handle?: FileHandle
}

export interface AiCreateFromFilesInput {
  prompt: string
  text_attachment?: string
  process_type?: 'async' | 'direct'
  files: FileAttachmentInput[]
}

/** An open FileHandle (anything else given as `handle` is ignored: the path is read). */
function isFileHandle(v: unknown): v is FileHandle {
  return (
    isRecord(v) && typeof v.fd === 'number' && typeof v.read === 'function' && typeof v.stat === 'function'
  )
}

/** Each file of `input` checked (see the file's comment), as the body will read it; nothing is sent. */
export async function checkedFiles(
  transport: Transport,
  input: AiCreateFromFilesInput,
  path: string,
  limit: number,
): Promise<BodyFile[]> {
  if (!isRecord(input) || !Array.isArray(input.files)) {
    throw transport.error({
      status: 0,
      errorCode: CLIENT_ERROR_CODES.validation,
      message: 'Nothing was sent: files must be a list of {path, name}.',
      fields: { files: 'files must be a list of {path, name}' },
      method: 'POST',
      path,
    })
  }

  const files: BodyFile[] = []
  for (const [i, f] of input.files.entries()) {
    const filePath = isRecord(f) && typeof f.path === 'string' ? f.path : ''
    const name = isRecord(f) && typeof f.name === 'string' && f.name !== '' ? f.name : basename(filePath)
    if (!filePath) {
      throw transport.error({
        status: 0,
        errorCode: CLIENT_ERROR_CODES.validation,
        message: `Nothing was sent: files.${i}.path must be the path of a file.`,
        fields: { [`files.${i}.path`]: 'must be the path of a file' },
        method: 'POST',
        path,
      })
    }
    const handle = isRecord(f) && isFileHandle(f.handle) ? f.handle : undefined
    const st = await fileStat(transport, filePath, name, limit, path, handle)
    const expect = isRecord(f) ? f.expect : undefined
    if (expect && (st.size !== expect.size || Math.floor(st.mtimeMs) !== Math.floor(expect.mtimeMs))) {
      throw transport.error({
        status: 0,
        errorCode: CLIENT_ERROR_CODES.fileSuperseded,
        message: `"${name}" changed on disk after it was queued (${sizeText(expect.size)} then, ${sizeText(st.size)} now); nothing was sent.`,
        retryable: false,
        method: 'POST',
        path,
      })
    }
    files.push({
      path: filePath,
      name,
      size: st.size,
      ...(expect ? { sha256: expect.sha256 } : {}),
      ...(handle ? { handle } : {}),
    })
  }
  return files
}

/**
 * The same rules as a JSON AI create, on equivalent metadata: the content is generated here, so a
 * placeholder of the right emptiness stands in for the Base64.
 */
export function uploadMetadata(input: AiCreateFromFilesInput, files: readonly BodyFile[]) {
  return {
    prompt: input.prompt,
    text_attachment: input.text_attachment,
    process_type: input.process_type,
    attachments: files.map((f) => ({
      file: f.size > 0 ? 'AAAA' : '',
      type: 'base64' as const,
      name: f.name,
    })),
  }
}

/**
 * Receipt-sized files: the body is built whole after each file was read and checked, so a file
 * that changed sends nothing at all.
 */
export async function wholeUploadBody(
  transport: Transport,
  fields: Record<string, unknown>,
  files: BodyFile[],
  base: { path: string; idempotencyKey: string },
): Promise<Buffer> {
  try {
    return await wholeJsonBody(fields, files)
  } catch (e) {
    if (e instanceof FileBodyError)
      throw transport.fileBodyError(e, {
        method: 'POST',
        path: base.path,
        idempotencyKey: base.idempotencyKey,
      })
    throw e
  }
}

/** The file's size and mtime, or the ApiError saying why it cannot be sent (nothing was). */
async function fileStat(
  transport: Transport,
  filePath: string,
  name: string,
  limit: number,
  apiPath: string,
  handle?: FileHandle,
): Promise<{ size: number; mtimeMs: number }> {
  const fail = (errorCode: string, message: string): ApiError =>
    transport.error({ status: 0, errorCode, message, retryable: false, method: 'POST', path: apiPath })
  let st
  try {
    st = handle ? await handle.stat() : await stat(filePath)
  } catch (e) {
    const code = errnoCode(e)
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      throw fail(CLIENT_ERROR_CODES.fileNotFound, `"${name}" was not found at ${filePath}; nothing was sent.`)
    }
    throw fail(
      CLIENT_ERROR_CODES.fileRead,
      `Could not read "${name}" at ${filePath} (${code ?? 'error'}); nothing was sent.`,
    )
  }
  if (!st.isFile()) {
    throw fail(
      CLIENT_ERROR_CODES.notAFile,
      `${filePath} is not a regular file (a folder or device?); nothing was sent.`,
    )
  }
  if (st.size > limit) {
    throw fail(
      CLIENT_ERROR_CODES.fileTooLarge,
      `"${name}" is ${sizeText(st.size)}, over the ${sizeText(limit)} limit for one upload; nothing was sent. ` +
        'Send a smaller file, or raise the limit with the maxFileBytes option (of the client, or of this call).',
    )
  }
  return { size: st.size, mtimeMs: st.mtimeMs }
}
