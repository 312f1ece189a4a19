/**
 * Health of the watched folder itself: whether it is there, a folder, and readable; the message
 * when it is lost; recovery checks with backoff until it is back; and the folder's identity, so a
 * folder deleted and created again at the same path is told from the one watched.
 *
 * Losing the folder and getting it back are the watcher's to act on (close chokidar, end the watch
 * session / open a new one); this part decides when.
 */
import { constants as fsConstants } from 'node:fs'
import type { Stats } from 'node:fs'
import { GONE_CODES } from './io'
import type { IoResult, WatchIo } from './io'
import type { Coded } from '../../../contract/message'
import * as msg from './messages'
import { rootIdentity } from './paths'

export interface RootHealthHost {
  readonly root: string
  readonly io: WatchIo
  readonly recoverInitialMs: number
  readonly recoverMaxMs: number
  /** The watcher runs (between start() and stop()). */
  active(): boolean
  /** The folder is lost: stop watching it; `gone` when it is not there any more. */
  lost(gone: boolean): void
  /** The folder is back (recovery found it): watch it again. */
  back(): Promise<void>
}

interface Lost {
  message: Coded
  gone: boolean
}

export class RootHealth {
  private lostState: Lost | undefined
  /** A part of the folder is in trouble (a sub-folder unreadable, a watcher error); shown as error. */
  problem: Coded | undefined
  /** Identity (dev, inode, birth time) of the folder when it was last found healthy. */
  private identity: string | undefined
  private timer: NodeJS.Timeout | undefined
  private delay: number

  constructor(private readonly host: RootHealthHost) {
    this.delay = host.recoverInitialMs
  }

  /** Why the folder is lost, or undefined while it is there. */
  get lostMessage(): Coded | undefined {
    return this.lostState?.message
  }

  /** Is the folder there, a folder, and readable? */
  async probe(): Promise<IoResult<Stats>> {
    const st = await this.host.io.stat(this.host.root)
    if (!st.ok) return st
    if (!st.value.isDirectory()) return { ok: false, code: 'ENOTDIR', message: 'not a directory' }
    const acc = await this.host.io.access(this.host.root, fsConstants.R_OK | fsConstants.X_OK)
    if (!acc.ok) return acc
    return st
  }

  /** The folder as found now is the one watched. */
  remember(st: Stats): void {
    this.identity = rootIdentity(st)
  }

  /** The folder at the path is another one than the one watched (deleted and created again). */
  replaced(st: Stats): boolean {
    return this.identity !== undefined && rootIdentity(st) !== this.identity
  }

  /** The folder is gone, unreadable or unavailable: error status, then recovery checks. */
  enterLost(code: string, message?: Coded): void {
    if (!this.host.active() || this.lostState) return
    const root = this.host.root
    this.lostState = {
      gone: GONE_CODES.has(code),
      message:
        message ??
        (code === 'ENOENT'
          ? msg.folderNotFound(root)
          : code === 'ENOTDIR'
            ? msg.folderNotAFolder(root)
            : msg.PERMISSION_CODES.has(code)
              ? msg.folderDenied(root, code)
              : msg.folderUnavailable(root, code)),
    }
    this.host.lost(this.lostState.gone)
    this.delay = this.host.recoverInitialMs
    this.schedule()
  }

  /**
   * Is the folder back? Then it is watched again (RootHealthHost.back). `now`: asked for (a rescan
   * while lost), so the backoff starts over when it is still missing.
   */
  async recover(now: boolean): Promise<void> {
    const lost = this.lostState
    if (now) clearTimeout(this.timer)
    const probe = await this.probe()
    if (!this.host.active() || !lost || this.lostState !== lost) return
    if (!probe.ok) {
      if (now) this.delay = this.host.recoverInitialMs
      this.schedule()
      return
    }
    this.lostState = undefined
    this.problem = undefined
    this.delay = this.host.recoverInitialMs
    this.remember(probe.value)
    await this.host.back()
  }

  /** stop(): no more recovery checks, and a later start() begins from a clean slate. */
  stop(): void {
    clearTimeout(this.timer)
    this.timer = undefined
    this.lostState = undefined
    this.problem = undefined
    this.delay = this.host.recoverInitialMs
  }

  private schedule(): void {
    clearTimeout(this.timer)
    if (!this.host.active() || !this.lostState) return
    const delay = this.delay
    this.delay = Math.min(this.host.recoverMaxMs, this.delay * 2)
    this.timer = setTimeout(() => {
      this.timer = undefined
      void this.recover(false)
    }, delay)
  }
}
