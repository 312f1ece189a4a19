/**
 * What mail intake needs of a mail server, as one interface with two implementations: IMAP
 * (./imap.ts, imapflow; loaded only when an IMAP account runs) and the demo's inbox
 * (./demo-inbox.ts, in memory, no network). The runner (./runner.ts) speaks only this.
 */
import type { Readable } from 'node:stream'
import type { Coded } from '../../../contract/message'
import type { MailAccountConfig, MailProblem } from '../../../contract/types'

/** One node of a mail's MIME structure, as IMAP BODYSTRUCTURE gives it. */
export interface MailPart {
  /** The IMAP part number ("1", "2.1"); "" for the message itself when it has one part ("TEXT"). */
  part: string
  /** Lower-case MIME type, e.g. application/pdf or multipart/mixed. */
  type: string
  /** inline, attachment or null. */
  disposition: string | null
  /** The file name (Content-Disposition filename, else Content-Type name), decoded; null when none. */
  filename: string | null
  /** Encoded size in bytes (Base64 is about 4/3 of the file). */
  size: number
  /** Content-ID without angle brackets, or null. */
  contentId: string | null
  /** Content-Transfer-Encoding, lower case. */
  encoding: string | null
  children?: MailPart[]
}

export interface MailAddress {
  name: string
  address: string
}

/** What is read of a mail before anything is downloaded. */
export interface MailMeta {
  uid: number
  messageId: string | null
  from: MailAddress[]
  subject: string
  /** The server's received date (INTERNALDATE), epoch ms. */
  receivedAt: number | null
  /** The whole message's size, bytes. */
  size: number
  structure: MailPart | null
}

export interface MailboxInfo {
  /** UIDVALIDITY as a decimal string (it can exceed 2^53 nowhere, but servers send it as a big number). */
  uidValidity: string
  /** The UID the next mail will get, when the server says. */
  uidNext: number | null
  exists: number
}

/** One open connection to one account, one mailbox selected at a time. */
export interface MailSession {
  /** The server announces IMAP IDLE (new mail is pushed); otherwise the runner polls. */
  readonly canIdle: boolean
  /** Selects a mailbox given as its levels (joined with the server's separator, encoded as the server needs). */
  open(mailbox: string[]): Promise<MailboxInfo>
  /** UIDs above `afterUid` of mails the server received on or after `since` (YYYY-MM-DD), ascending. */
  search(o: { afterUid: number; since: string }): Promise<number[]>
  /** Structure, envelope and received date of these mails (of the selected mailbox). */
  fetchMeta(uids: number[]): Promise<MailMeta[]>
  /**
   * One body part, decoded (Base64 or quoted-printable undone; text converted to UTF-8), as a stream
   * fetched in chunks: never the whole part in memory. Null when the mail or part is gone.
   */
  download(uid: number, part: string, o: { maxBytes: number }): Promise<Readable | null>
  /**
   * One small part (decoded) of each of these mails, whole, in one command: for attachments of at
   * most `maxBytes`; a mail whose part is larger, or gone, is left out (it is downloaded alone).
   */
  fetchParts(uids: number[], part: string, maxBytes: number): Promise<Map<number, Buffer>>
  /** Adds \Seen to these mails of the selected mailbox. */
  markSeen(uids: number[]): Promise<void>
  /** Moves these mails of the selected mailbox to `to` (its levels), creating it first when missing. Never deletes. */
  move(uids: number[], to: string[]): Promise<void>
  /**
   * Waits until the selected mailbox has new mail (IDLE), `ms` passed, or `signal` aborts. Rejects
   * when the connection is lost.
   */
  wait(ms: number, signal: AbortSignal): Promise<void>
  close(): Promise<void>
}

export interface MailServer {
  connect(account: MailAccountConfig, password: string | null, signal: AbortSignal): Promise<MailSession>
}

/**
 * A failure of the mail server or the way to it, classified for the account's state: `problem`
 * says what a person must fix (auth, certificate, mailbox) or that the server cannot be reached now
 * (unreachable: retried with backoff). Its message names what to do and never holds a password.
 */
export class MailError extends Error {
  override readonly name = 'MailError'
  /** The message as a catalogue id with parameters (issue 34); its text is the message. */
  readonly coded: Coded | undefined
  constructor(
    readonly problem: MailProblem,
    message: string | Coded,
  ) {
    super(typeof message === 'string' ? message : message.text)
    this.coded = typeof message === 'string' ? undefined : message
  }

  /** Retried soon with backoff (the network, a dropped connection); the rest need a person. */
  get transient(): boolean {
    return this.problem === 'unreachable' || this.problem === 'protocol'
  }
}
