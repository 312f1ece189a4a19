/** The typed client for the bookkeeping API: plain Node, no Electron. */
export * from './client'
export * from './errors'
export * from './ratelimit'
export * from './base-url'
export { base64Chunks, base64Length, streamedJsonBody, FileBodyError } from './stream-body'
export type { BodyFile, StreamedJsonBody } from './stream-body'
