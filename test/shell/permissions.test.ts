import { describe, expect, it } from 'vitest'
import { allowPermission } from '../../src-main/shell/permissions'

const appUrl = 'file:///opt/Bookdrop/resources/app.asar/out/renderer/index.html'
const page = { requestingUrl: `${appUrl}#/capture`, appUrl, isMainFrame: true }

describe('allowPermission', () => {
  it.each([
    'media',
    'geolocation',
    'notifications',
    'midi',
    'midiSysex',
    'pointerLock',
    'fullscreen',
    'openExternal',
    'clipboard-read',
    'display-capture',
    'mediaKeySystem',
    'idle-detection',
    'hid',
    'serial',
    'usb',
    'window-management',
    'unknown',
    'storage-access',
    'top-level-storage-access',
    'fileSystem',
    'camera',
    '',
  ])('denies %s, even to the app page', (permission) => {
    expect(allowPermission(permission, page)).toBe(false)
  })

  it('lets the app page write plain text to the clipboard', () => {
    expect(allowPermission('clipboard-sanitized-write', page)).toBe(true)
    expect(allowPermission('clipboard-sanitized-write', { requestingUrl: 'file://', appUrl })).toBe(true)
  })

  it('denies the clipboard to anyone else, to sub-frames, and when the origin is unknown', () => {
    expect(allowPermission('clipboard-sanitized-write', { ...page, requestingUrl: 'https://evil.example/' })).toBe(false)
    expect(allowPermission('clipboard-sanitized-write', { ...page, requestingUrl: 'file:///tmp/evil.html' })).toBe(false)
    expect(allowPermission('clipboard-sanitized-write', { ...page, isMainFrame: false })).toBe(false)
    expect(allowPermission('clipboard-sanitized-write', { appUrl, requestingUrl: null })).toBe(false)
    expect(allowPermission('clipboard-sanitized-write', { appUrl, requestingUrl: 'null' })).toBe(false)
  })

  it('matches the dev server by origin', () => {
    const dev = { appUrl: 'http://localhost:5173/', isMainFrame: true }
    expect(allowPermission('clipboard-sanitized-write', { ...dev, requestingUrl: 'http://localhost:5173' })).toBe(true)
    expect(allowPermission('clipboard-sanitized-write', { ...dev, requestingUrl: 'http://localhost:9999' })).toBe(false)
    expect(allowPermission('clipboard-sanitized-write', { ...dev, requestingUrl: 'file://' })).toBe(false)
    expect(allowPermission('media', { ...dev, requestingUrl: 'http://localhost:5173/' })).toBe(false)
  })
})
