/**
 * How calls and events travel between the renderer and main: the IPC channels, and the payload limits
 * both hosts (IPC and HTTP) hold every call to. No zod: any side may import it.
 */
import type { CallName } from './names'

/** The calls that carry files as bytes; every other call's payload is at most MAX_CALL_BYTES. */
export const FILE_CALLS = ['addFileContents', 'uploadBankStatement'] as const satisfies readonly CallName[]
/** Largest payload of a call that carries no file: 1 MiB of JSON (IPC and HTTP alike). */
export const MAX_CALL_BYTES = 1024 * 1024

/** Base64 characters in one call (about 105 MB of files): bounds memory in main and the web host. */
export const MAX_FILE_CONTENTS_BASE64 = 140 * 1024 * 1024

/** IPC channel of a call, and the one channel events arrive on. */
export const callChannel = (name: CallName): string => `bookdrop:${name}`
export const EVENT_CHANNEL = 'bookdrop:event'
/**
 * Preload → main, one-way: the path of a file the person dropped or picked, as
 * webUtils.getPathForFile gave it (a File the page made itself has none). Main lets `addFiles`
 * read a path only if it came this way in the last few minutes (core/user-paths.ts).
 */
export const GRANT_FILE_CHANNEL = 'bookdrop:grant-file'
