/**
 * The shell's and the web host's security decisions, in plain Node (no Electron).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { isAllowedHost, isAllowedOrigin, isTrustedSender } from '../../src-main/core/security'
import { WEB_HOST_CSP } from '../../src-main/web-host'

const ROOT = join(import.meta.dirname, '..', '..')

describe('isTrustedSender', () => {
  const FILE_APP = 'file:///opt/Bookdrop/resources/app.asar/out/renderer/index.html'
  const DEV_APP = 'http://localhost:5173/'
  /** isTrustedSender(url, app) is `trusted` for each of `urls`. */
  const trusts = (app: string, trusted: boolean, urls: string[]) => {
    for (const url of urls) expect(isTrustedSender(url, app), url).toBe(trusted)
  }

  it('accepts the app page itself, built or from the dev server, whatever the hash or query', () => {
    trusts(FILE_APP, true, [FILE_APP, `${FILE_APP}#/history`, `${FILE_APP}?x=1`])
    trusts(DEV_APP, true, ['http://localhost:5173/', 'http://localhost:5173/settings?tab=2#k'])
  })

  it('on the app:// scheme, accepts its own host (any path, as the scheme serves only the renderer) and nothing else', () => {
    const APP = 'app://bookdrop/index.html'
    trusts(APP, true, [APP, 'app://bookdrop/index.html#history', 'app://bookdrop/'])
    trusts(APP, false, ['app://other/index.html', 'app://user:pw@bookdrop/index.html', FILE_APP])
    trusts(APP, false, ['https://bookdrop/index.html', 'about:blank'])
  })

  it('refuses any other local file, even next to the app', () => {
    expect(isTrustedSender('file:///opt/Bookdrop/resources/app.asar/out/renderer/other.html', FILE_APP)).toBe(
      false,
    )
    expect(isTrustedSender('file:///home/me/Downloads/evil.html', FILE_APP)).toBe(false)
    expect(
      isTrustedSender('file://evil-server/opt/Bookdrop/resources/app.asar/out/renderer/index.html', FILE_APP),
    ).toBe(false)
  })

  it('refuses other origins: scheme, host or port differ, or credentials in the URL', () => {
    trusts(DEV_APP, false, ['http://localhost:5174/', 'https://localhost:5173/', 'http://127.0.0.1:5173/'])
    trusts(DEV_APP, false, [
      'http://localhost.evil.example:5173/',
      'http://user:pw@localhost:5173/',
      FILE_APP,
    ])
    trusts(FILE_APP, false, ['https://evil.example/'])
  })

  it('refuses pseudo pages and garbage', () => {
    for (const u of [
      'about:blank',
      'data:text/html,<script>1</script>',
      'javascript:alert(1)',
      'devtools://devtools/x',
      '',
      'not a url',
      null,
      undefined,
    ]) {
      expect(isTrustedSender(u, FILE_APP)).toBe(false)
      expect(isTrustedSender(u, DEV_APP)).toBe(false)
    }
    expect(isTrustedSender(FILE_APP, 'not a url')).toBe(false)
    expect(isTrustedSender('about:blank', 'about:blank')).toBe(false)
  })
})

describe('web host guards', () => {
  it('Host must be 127.0.0.1 or localhost with the right port (DNS rebinding)', () => {
    expect(isAllowedHost('127.0.0.1:4000', 4000)).toBe(true)
    expect(isAllowedHost('localhost:4000', 4000)).toBe(true)
    expect(isAllowedHost('LOCALHOST:4000', 4000)).toBe(true)
    expect(isAllowedHost('127.0.0.1:4001', 4000)).toBe(false)
    expect(isAllowedHost('127.0.0.1', 4000)).toBe(false)
    expect(isAllowedHost('evil.example:4000', 4000)).toBe(false)
    expect(isAllowedHost('[::1]:4000', 4000)).toBe(false)
    expect(isAllowedHost(undefined, 4000)).toBe(false)
  })

  it('an Origin header, when present, must be the host itself', () => {
    expect(isAllowedOrigin(undefined, '127.0.0.1:4000', 4000)).toBe(true)
    expect(isAllowedOrigin('http://127.0.0.1:4000', '127.0.0.1:4000', 4000)).toBe(true)
    expect(isAllowedOrigin('http://localhost:4000', 'localhost:4000', 4000)).toBe(true)
    expect(isAllowedOrigin('http://evil.example', '127.0.0.1:4000', 4000)).toBe(false)
    expect(isAllowedOrigin('null', '127.0.0.1:4000', 4000)).toBe(false)
    expect(isAllowedOrigin('http://127.0.0.1:4001', '127.0.0.1:4000', 4000)).toBe(false)
    expect(isAllowedOrigin('https://127.0.0.1:4000', '127.0.0.1:4000', 4000)).toBe(false)
  })
})

describe('CSP', () => {
  const directives = (policy: string) =>
    new Map(
      policy
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .filter((d) => d[0])
        .map(([name, ...sources]) => [name!, sources.join(' ')]),
    )

  it("the web host's header has every directive of index.html's <meta>, unchanged, and forbids framing", () => {
    const html = readFileSync(join(ROOT, 'src-renderer', 'index.html'), 'utf8')
    const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1]
    expect(meta).toBeTruthy()
    const header = directives(WEB_HOST_CSP)
    for (const [name, sources] of directives(meta!)) expect(header.get(name), name).toBe(sources)
    expect(header.get('script-src')).toBe("'self'")
    expect(header.get('frame-ancestors')).toBe("'none'")
    expect(header.get('object-src')).toBe("'none'")
    expect(WEB_HOST_CSP).not.toMatch(/unsafe-eval/)
  })
})
