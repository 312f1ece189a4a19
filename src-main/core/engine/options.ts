/** How a host opens the engine, and what open() reports. */
import type { InspectFn } from '../intake/inspect'
import type { MailOptions } from '../mail/service'
import type { ClientProvider, QueueOptions } from '../queue/queue'
import type { PrivacyReport } from '../store/private-dir'
import type { InsideFs } from '../watch/inside'
import type { WatchTiming } from './folders'

export interface EngineOptions {
  /** Where bookdrop.db lives. */
  dataDir: string
  clients: ClientProvider
  queue?: Partial<QueueOptions>
  /** Watcher timing (tests shorten these). */
  watch?: WatchTiming
  /**
   * The content check ("the bytes are what the name says", "finished means finished"): plain data
   * in and out (intake/inspect.ts). Default: in the limited intake worker (intake/intake-worker.ts);
   * tests may pass the function itself.
   */
  inspect?: InspectFn
  /** Files hashed at the same time (bounds memory and disk load on a big initial scan). */
  hashConcurrency?: number
  /**
   * True for a folder the person picked in the native folder picker (an after-upload destination
   * outside the watched folder must be one). Without it, destinations must lie inside the folder.
   */
  isPickedDirectory?: (path: string) => boolean
  /**
   * When the queue database cannot be read: move it aside (`<name>.corrupt-<timestamp>`) and start
   * with an empty queue (headless --reset-queue, the desktop's dialog). Without it, open() throws
   * CorruptDatabaseError. A readable database is never moved.
   */
  resetQueue?: boolean
  /**
   * Mail intake (issue 24): where passwords come from, timing, and whether every enabled rule starts
   * watching at open (the app) or the host starts the ones it wants (headless: `mail.start(ids)`).
   */
  mail?: MailOptions & { autoStart?: boolean }
  /** How often the local copies' retention runs (engine/retention.ts; default hourly; tests shorten it). */
  copySweepMs?: number
  /**
   * Content fingerprints of the files taken (issue 33: a PDF's text, a photo's picture), computed in
   * a limited worker and kept in the history database. Default on; false only to measure what they
   * cost (`npm run bench -- --only fingerprint`; headless: BOOKDROP_FINGERPRINTS=off).
   */
  fingerprints?: boolean
  /** How a file is opened to be sent (watch/inside.ts); tests run the fallback used off Linux and meet open errors. */
  openForSend?: InsideFs
}

/** What open() did with an unreadable queue database. */
export type OpenReport = {
  movedAside: string | null
  /** What was tightened in a data folder others could read (store/private-dir.ts); the hosts say so once. */
  madePrivate: PrivacyReport
}
