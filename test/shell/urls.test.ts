import { describe, expect, it } from 'vitest'
import { decideNavigation, isAppNavigation, isSafeExternalUrl, safeExternalUrl } from '../../src-main/shell/urls'

describe('isSafeExternalUrl', () => {
  it.each([
    'https://example.com',
    'https://example.com/',
    'https://docs.example.com/path?q=1#frag',
    'https://example.com:8443/x',
    'HTTPS://EXAMPLE.COM/Path',
    'https://пример.рф/',
    'https://bücher.example/',
    'https://xn--e1afmkfd.xn--p1ai/',
    'https://93.184.216.34/',
    'https://[2001:db8::1]/',
  ])('allows %s', (url) => {
    expect(isSafeExternalUrl(url)).toBe(true)
  })

  it.each([
    ['javascript:', 'javascript:alert(1)'],
    ['javascript: upper case', 'JAVASCRIPT:alert(1)'],
    ['javascript: with leading space', ' javascript:alert(1)'],
    ['javascript: with a tab inside the scheme', 'java\tscript:alert(1)'],
    ['file:', 'file:///etc/passwd'],
    ['file: UNC', 'file://server/share/x.exe'],
    ['http:', 'http://example.com'],
    ['data:', 'data:text/html,<script>alert(1)</script>'],
    ['blob:', 'blob:https://example.com/uuid'],
    ['vbscript:', 'vbscript:msgbox'],
    ['custom scheme', 'bookdrop://open'],
    ['ms-settings', 'ms-settings:privacy'],
    ['smb:', 'smb://host/share'],
    ['ftp:', 'ftp://example.com/'],
    ['mailto:', 'mailto:a@example.com'],
    ['credentials', 'https://user:pass@example.com/'],
    ['user name only', 'https://user@example.com/'],
    ['empty password', 'https://user:@example.com/'],
    ['credentials that look like a host', 'https://example.com@evil.example/'],
    ['relative', '/settings'],
    ['protocol-relative', '//example.com'],
    ['no host', 'https:///path'],
    ['no slashes', 'https:example.com'],
    ['one slash', 'https:/example.com'],
    ['backslashes', 'https:\\\\example.com'],
    ['backslash in the authority', 'https://good.example\\@evil.example/'],
    ['empty', ''],
    ['whitespace', '   '],
    ['newline inside', 'https://exa\nmple.com/'],
    ['trailing space', 'https://example.com/ '],
    ['nbsp', 'https://example.com/\u00a0'],
    ['garbage', 'not a url'],
  ])('refuses %s', (_why, url) => {
    expect(isSafeExternalUrl(url)).toBe(false)
  })

  it('refuses non-strings and very long URLs', () => {
    for (const v of [undefined, null, 42, {}, ['https://example.com'], new URL('https://example.com')]) {
      expect(isSafeExternalUrl(v)).toBe(false)
    }
    expect(isSafeExternalUrl(`https://example.com/${'a'.repeat(3000)}`)).toBe(false)
  })

  it('returns the normalized URL that was checked (punycode host, lower-case scheme)', () => {
    expect(safeExternalUrl('HTTPS://Example.COM')).toBe('https://example.com/')
    expect(safeExternalUrl('https://пример.рф/a')).toBe('https://xn--e1afmkfd.xn--p1ai/a')
    expect(safeExternalUrl('http://example.com')).toBeNull()
  })
})

describe('isAppNavigation', () => {
  const fileApp = 'file:///opt/Bookdrop/resources/app.asar/out/renderer/index.html'
  const devApp = 'http://localhost:5173/'

  it('accepts the same file with another hash or query', () => {
    expect(isAppNavigation(`${fileApp}#/history`, fileApp)).toBe(true)
    expect(isAppNavigation(`${fileApp}?x=1`, fileApp)).toBe(true)
  })

  it('refuses other files, even next to the app', () => {
    expect(isAppNavigation('file:///opt/Bookdrop/resources/app.asar/out/renderer/other.html', fileApp)).toBe(false)
    expect(isAppNavigation('file:///etc/passwd', fileApp)).toBe(false)
    expect(isAppNavigation('file://evil-host/opt/Bookdrop/resources/app.asar/out/renderer/index.html', fileApp)).toBe(false)
  })

  it('accepts the dev server origin only', () => {
    expect(isAppNavigation('http://localhost:5173/settings', devApp)).toBe(true)
    expect(isAppNavigation('http://localhost:5174/', devApp)).toBe(false)
    expect(isAppNavigation('https://localhost:5173/', devApp)).toBe(false)
    expect(isAppNavigation('http://127.0.0.1:5173/', devApp)).toBe(false)
    expect(isAppNavigation('http://user:pw@localhost:5173/', devApp)).toBe(false)
  })

  it('refuses everything against a non-web app URL, and garbage', () => {
    expect(isAppNavigation('about:blank', 'about:blank')).toBe(false)
    expect(isAppNavigation('not a url', devApp)).toBe(false)
    expect(isAppNavigation(undefined, devApp)).toBe(false)
    expect(isAppNavigation('https://example.com/', 'nonsense')).toBe(false)
    expect(isAppNavigation('file:///opt/%E0%A4%A/index.html', 'file:///opt/%E0%A4%A/index.html')).toBe(false)
  })
})

describe('decideNavigation', () => {
  const app = 'file:///app/index.html'
  it('keeps the app, sends https out, refuses the rest', () => {
    expect(decideNavigation('file:///app/index.html#/x', app, { allowInApp: true })).toBe('allow')
    expect(decideNavigation('https://example.com/', app, { allowInApp: true })).toBe('open-external')
    expect(decideNavigation('http://example.com/', app, { allowInApp: true })).toBe('deny')
    expect(decideNavigation('javascript:alert(1)', app, { allowInApp: true })).toBe('deny')
  })
  it('never opens the app page in a new window', () => {
    expect(decideNavigation('file:///app/index.html', app, { allowInApp: false })).toBe('deny')
  })
})
