/**
 * "Add from phone" (issue 25), as the phone room sees it: the listener on a private-network address,
 * the one-time link and its QR code, the phones waiting for Allow and those paired, and the counter
 * of refused requests. Every change is told through `onChange` (the room emits the `phone` event).
 * Loaded on first use (the room imports it dynamically): an app that never pairs a phone never
 * loads it.
 */
import { createRequire } from 'node:module'
import type QRCodeModule from 'qrcode'
import type { PhoneDevice, PhoneState } from '../../../contract/phone'
import type { UploadView } from '../../../contract/types'
import { PhoneInbox, type InboxDeps } from './inbox'
import { chooseListenAddress, lanAddresses } from './addresses'
import { PhoneListener } from './listener'
import { loadPhonePage } from './page'
import { Pairing, type PhoneSession } from './sessions'

const require = createRequire(import.meta.url)

export interface PhoneServiceOptions extends InboxDeps {
  /** The built renderer (out/renderer): the phone's page is its phone/index.html. */
  rendererDir: string
  /** The business name of a profile (the phone's page and the panel show it). */
  businessName(profileId: string | null): string | null
  /** An upload of the engine (a phone follows what became of its photos). */
  upload(id: number): UploadView | undefined
  onChange(state: PhoneState): void
  /** Test clocks. */
  clock?: () => number
  linkTtlMs?: number
  idleMs?: number
}

/** Rows of a QR code's modules ('1' dark), for the renderer to draw (qrcode, error correction M). */
export function qrRows(text: string): string[] {
  const QRCode = require('qrcode') as typeof QRCodeModule
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' })
  const rows: string[] = []
  for (let y = 0; y < modules.size; y++) {
    let row = ''
    for (let x = 0; x < modules.size; x++) row += modules.get(x, y) ? '1' : '0'
    rows.push(row)
  }
  return rows
}

export class PhoneService {
  private readonly pairing: Pairing
  private readonly inbox: PhoneInbox
  private listener: PhoneListener | null = null
  private address: string | null = null
  private link: { url: string; expiresAt: number; qr: string[] } | null = null
  private refused = 0
  private problem: string | null = null
  private sweepTimer: NodeJS.Timeout | null = null
  private emitTimer: NodeJS.Timeout | null = null
  private readonly clock: () => number

  constructor(private readonly opts: PhoneServiceOptions) {
    this.clock = opts.clock ?? Date.now
    this.pairing = new Pairing(this.clock, opts.linkTtlMs, opts.idleMs, (id) => this.forget(id))
    this.inbox = new PhoneInbox(opts)
  }

  /**
   * Opens the panel: starts the listener on `wanted` ('' = the first private address) if it is not
   * running there, and makes a link unless one is still valid.
   */
  async open(wanted: string): Promise<PhoneState> {
    const choice = chooseListenAddress(wanted)
    if ('problem' in choice) {
      await this.stopListener()
      this.problem = choice.problem
      return this.changed()
    }
    if (this.listener && this.address !== choice.address) await this.stopListener()
    if (!this.listener) {
      // Nothing is arriving yet: what an earlier run left half-received goes.
      await this.inbox.sweepIncoming()
      const listener = new PhoneListener({
        pairing: this.pairing,
        page: await loadPhonePage(this.opts.rendererDir),
        inbox: this.inbox,
        businessName: (id) => this.opts.businessName(id),
        upload: (id) => this.opts.upload(id),
        changed: () => this.changed(),
        refused: () => {
          this.refused++
          this.changedSoon()
        },
        now: this.clock,
      })
      try {
        await listener.listen(choice.address)
      } catch (e) {
        this.problem = `Bookdrop cannot listen on ${choice.address} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}): choose another address in Settings.`
        return this.changed()
      }
      this.listener = listener
      this.address = choice.address
      this.sweepTimer = setInterval(() => this.sweep(), 30_000)
      this.sweepTimer.unref()
    }
    this.problem = null
    if (!this.link || this.pairing.linkExpiresAt() === null) this.makeLink()
    return this.changed()
  }

  private makeLink(): void {
    if (!this.listener) return
    const { token, expiresAt } = this.pairing.newLink()
    // The token rides in the fragment: a browser never sends it in a request line or a Referer.
    const url = `${this.listener.url}/#t=${token}`
    this.link = { url, expiresAt, qr: qrRows(url) }
  }

  /** "New link": the previous one stops working. */
  newLink(): PhoneState {
    if (!this.listener) throw new Error('The phone panel is closed: open it first.')
    this.makeLink()
    return this.changed()
  }

  /** Allow (photos go to `profileId`) or Refuse a phone waiting; false when it no longer waits. */
  decide(id: string, allow: boolean, profileId: string | null): boolean {
    const s = this.pairing.get(id)
    if (!s || s.state !== 'pending') return false
    this.pairing.decide(id, allow, profileId)
    if (!allow) this.forget(id)
    this.listener?.wake(id)
    this.changed()
    return true
  }

  /** Ends a phone's session (pending or paired). */
  end(id: string): boolean {
    const ended = this.pairing.end(id)
    this.forget(id)
    this.changed()
    return ended
  }

  private forget(id: string): void {
    this.inbox.forgetSession(id)
    this.listener?.forgetSession(id)
  }

  /** Sessions idle for 30 minutes end (Pairing tells `forget` of each); the panel hears of it. */
  private sweep(): void {
    if (this.pairing.sweep() > 0) this.changed()
  }

  /** Closes the panel: every session ends, the link is spent, the listener stops. */
  async close(): Promise<PhoneState> {
    for (const s of this.pairing.list()) this.forget(s.id)
    this.pairing.endAll()
    this.link = null
    this.problem = null
    await this.stopListener()
    return this.changed()
  }

  private async stopListener(): Promise<void> {
    if (this.sweepTimer) clearInterval(this.sweepTimer)
    this.sweepTimer = null
    const l = this.listener
    this.listener = null
    this.address = null
    await l?.close()
  }

  /** The panel's state now. */
  state(): PhoneState {
    this.pairing.sweep()
    const device = (s: PhoneSession): PhoneDevice => ({
      id: s.id,
      device: s.device,
      code: s.code,
      since: s.createdAt,
      lastSeenAt: s.lastSeenAt,
      photos: s.photos,
      business: s.state === 'allowed' ? this.opts.businessName(s.profileId) : null,
    })
    const sessions = this.pairing.list()
    const linkValid = this.link && this.pairing.linkExpiresAt() !== null ? this.link : null
    return {
      open: this.listener !== null,
      address: this.listener?.url ?? null,
      link: linkValid,
      pending: sessions.filter((s) => s.state === 'pending').map(device),
      paired: sessions.filter((s) => s.state === 'allowed').map(device),
      refused: this.refused,
      interfaces: lanAddresses(),
      problem: this.problem,
    }
  }

  /** The profile a paired phone's photos go to (tests and the room). */
  session(id: string): PhoneSession | undefined {
    return this.pairing.get(id)
  }

  private changed(): PhoneState {
    if (this.emitTimer) clearTimeout(this.emitTimer)
    this.emitTimer = null
    const s = this.state()
    this.opts.onChange(s)
    return s
  }

  /** Refused requests arrive in floods: the panel hears of them at most twice a second. */
  private changedSoon(): void {
    if (this.emitTimer) return
    this.emitTimer = setTimeout(() => this.changed(), 500)
    this.emitTimer.unref()
  }

  /** Stops everything (the app closes). */
  async shutdown(): Promise<void> {
    if (this.emitTimer) clearTimeout(this.emitTimer)
    this.emitTimer = null
    this.pairing.endAll()
    await this.stopListener()
  }
}
