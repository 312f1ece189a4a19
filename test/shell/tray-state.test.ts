import { describe, expect, it } from 'vitest'
import { inflateSync } from 'node:zlib'
import { AttentionTracker, DropTargetMemory, deriveTrayState, type TraySessionInput } from '../../src-main/shell/tray-state'
import { renderTrayIcon, trayIconPng } from '../../src-main/shell/tray-icons'
import { uploadEvent } from './helpers'

const session = (over: Partial<TraySessionInput> = {}): TraySessionInput => ({
  profileId: 'p1',
  state: 'active',
  message: null,
  counts: {},
  ...over,
})

describe('deriveTrayState', () => {
  it('is idle with nothing to do', () => {
    const v = deriveTrayState(session({ counts: { completed: 40, duplicate: 2 } }))
    expect(v).toMatchObject({ kind: 'idle', active: 0, tooltip: 'Bookdrop — All files sent', title: '' })
    expect(v).toMatchObject({ pauseLabel: 'Pause uploads', pauseAction: 'pause', pauseEnabled: true })
    expect(v.openLabel).toBe('Open Bookdrop')
    expect(v.quitLabel).toBe('Quit Bookdrop')
  })

  it('counts every file on its way as uploading', () => {
    const v = deriveTrayState(session({ counts: { queued: 5, uploading: 2, waiting_retry: 1, processing: 4, completed: 9 } }))
    expect(v).toMatchObject({ kind: 'uploading', active: 12, status: 'Uploading 12 files', title: '12' })
    expect(deriveTrayState(session({ counts: { queued: 1 } })).status).toBe('Uploading 1 file')
  })

  it('mentions the rate limit while uploading is held back by it', () => {
    const v = deriveTrayState(session({ state: 'rate_limited', counts: { queued: 3 } }))
    expect(v.kind).toBe('uploading')
    expect(v.status).toContain('rate limit')
  })

  it('is paused when the profile is paused, and offers to resume', () => {
    const v = deriveTrayState(session({ state: 'paused', counts: { queued: 3 } }))
    expect(v).toMatchObject({ kind: 'paused', status: 'Paused, 3 files waiting', pauseLabel: 'Resume uploads', pauseAction: 'resume' })
    expect(deriveTrayState(session({ state: 'paused' })).status).toBe('Paused')
  })

  it('needs attention for unseen failures, ahead of paused and uploading', () => {
    const v = deriveTrayState(session({ state: 'paused', counts: { queued: 3, failed: 3 } }), 3)
    expect(v).toMatchObject({ kind: 'attention', attention: 3, tooltip: 'Bookdrop — 3 files need attention', title: '!3' })
    expect(v.pauseLabel).toBe('Resume uploads')
    expect(deriveTrayState(session(), 1).status).toBe('1 file needs attention')
  })

  it('does not nag about failures already seen', () => {
    expect(deriveTrayState(session({ counts: { failed: 3 } }), 0).kind).toBe('idle')
  })

  it('needs attention when the key or the subscription must be fixed, and cannot pause then', () => {
    const auth = deriveTrayState(session({ state: 'auth_required', counts: { queued: 2 } }))
    expect(auth).toMatchObject({ kind: 'attention', status: 'The API key needs attention', pauseEnabled: false })
    const forbidden = deriveTrayState(session({ state: 'forbidden' }))
    expect(forbidden).toMatchObject({ kind: 'attention', pauseEnabled: false })
    expect(forbidden.status).toContain('subscription')
    const credits = deriveTrayState(session({ state: 'out_of_credits', counts: { waiting_retry: 1 } }))
    expect(credits).toMatchObject({ kind: 'attention', status: 'AI credits have run out', pauseEnabled: false })
  })

  it('says it waits for the network (offline, unreachable, not the API), that nothing is lost, and can still pause', () => {
    const offline = deriveTrayState(session({ state: 'offline', counts: { waiting_retry: 2, processing: 1 } }))
    expect(offline).toMatchObject({
      kind: 'paused',
      status: 'Offline; 3 files waiting, nothing is lost',
      tooltip: 'Bookdrop — Offline; 3 files waiting, nothing is lost',
      pauseEnabled: true,
    })
    expect(deriveTrayState(session({ state: 'unreachable', counts: { queued: 1 } })).status).toBe(
      'Cannot reach the server; 1 file waiting, nothing is lost',
    )
    expect(deriveTrayState(session({ state: 'not_api' })).status).toBe('Something other than the API answers')
  })

  it('is idle and cannot pause without a profile', () => {
    for (const s of [null, session({ profileId: null, counts: { queued: 4 } })]) {
      expect(deriveTrayState(s)).toMatchObject({ kind: 'idle', status: 'Not connected', pauseEnabled: false })
    }
  })
})

describe('AttentionTracker', () => {
  it('counts failed and skipped rows until they move on or the window is opened', () => {
    const t = new AttentionTracker()
    expect(t.handle(uploadEvent(1, 'failed', 'uploading'))).toBe(true)
    expect(t.handle(uploadEvent(2, 'skipped', null, { reason: 'too_large' }))).toBe(true)
    expect(t.handle(uploadEvent(3, 'skipped', null, { reason: 'existed_before' }))).toBe(false)
    expect(t.handle(uploadEvent(4, 'completed', 'processing'))).toBe(false)
    expect(t.handle(uploadEvent(1, 'failed', 'failed'))).toBe(false)
    expect(t.count).toBe(2)
    expect(t.handle(uploadEvent(1, 'queued', 'failed'))).toBe(true) // retried
    expect(t.count).toBe(1)
    expect(t.acknowledge()).toBe(true)
    expect(t.count).toBe(0)
    expect(t.acknowledge()).toBe(false)
  })
})

describe('tray icons', () => {
  const pixel = (rgba: Buffer, size: number, x: number, y: number): number[] => [...rgba.subarray((y * size + x) * 4, (y * size + x) * 4 + 4)]

  it('are valid PNGs of the asked size with the right pixels', () => {
    for (const kind of ['idle', 'uploading', 'paused', 'attention'] as const) {
      const png = trayIconPng(kind, 32)
      expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
      expect(png.readUInt32BE(16)).toBe(32)
      expect(png.readUInt32BE(20)).toBe(32)
      const idatLen = png.readUInt32BE(33)
      expect(png.toString('ascii', 37, 41)).toBe('IDAT')
      const rows = inflateSync(png.subarray(41, 41 + idatLen))
      expect(rows.length).toBe(32 * (32 * 4 + 1))
    }
  })

  it('differ by a badge in the corner: none, green, amber, red', () => {
    const size = 32
    const corner = (kind: 'idle' | 'uploading' | 'paused' | 'attention'): number[] => pixel(renderTrayIcon(kind, size), size, 24, 24)
    const [ur, ug] = corner('uploading')
    expect(ug! > ur!).toBe(true) // green
    const [ar, ag, ab] = corner('attention')
    expect(ar! > ag! && ar! > ab!).toBe(true) // red
    const [pr, pg, pb] = corner('paused')
    expect(pr! > pb! && pg! > pb!).toBe(true) // amber
    expect(corner('idle')[2]! > corner('idle')[0]!).toBe(true) // the blue of the icon itself
    expect(pixel(renderTrayIcon('idle', size), size, 0, 0)[3]).toBe(0) // rounded, transparent corner
  })
})

describe('DropTargetMemory', () => {
  it('defaults to expenses and follows the target of the last drop in the window', () => {
    const m = new DropTargetMemory()
    expect(m.target).toBe('expenses')
    m.handle(uploadEvent(1, 'queued', null, { source: 'drop', target: 'bills' }))
    expect(m.target).toBe('bills')
    m.handle(uploadEvent(2, 'queued', null, { source: 'watch', target: 'invoices' })) // a watched folder's target
    m.handle(uploadEvent(1, 'completed', 'processing', { source: 'drop', target: 'invoices' })) // not a new drop
    expect(m.target).toBe('bills')
  })
})
