import { describe, expect, it } from 'vitest'
import { contentSecurityPolicy, cspDirectives, withCspHeader } from '../../src-main/shell/csp'

const PROD =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; " +
  "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'"

describe('contentSecurityPolicy', () => {
  it('is the exact strict policy in production', () => {
    expect(contentSecurityPolicy({ dev: false })).toBe(PROD)
  })

  it('ignores a dev server origin outside dev', () => {
    expect(contentSecurityPolicy({ dev: false, devServerOrigin: 'http://localhost:5173' })).toBe(PROD)
  })

  it('adds the dev server (http and its HMR websocket) in dev, and nothing else changes', () => {
    const csp = contentSecurityPolicy({ dev: true, devServerOrigin: 'http://localhost:5173/' })
    expect(csp).toBe(
      "default-src 'self'; script-src 'self' 'unsafe-inline' http://localhost:5173; style-src 'self' 'unsafe-inline'; " +
        "img-src 'self' data: blob:; connect-src 'self' http://localhost:5173 ws://localhost:5173; object-src 'none'; " +
        "base-uri 'none'; frame-ancestors 'none'; form-action 'none'",
    )
  })

  it('uses wss for an https dev server', () => {
    const connect = new Map(cspDirectives({ dev: true, devServerOrigin: 'https://127.0.0.1:5443' })).get('connect-src')
    expect(connect).toEqual(["'self'", 'https://127.0.0.1:5443', 'wss://127.0.0.1:5443'])
  })

  it('refuses to widen the policy with a malformed or non-http dev origin', () => {
    for (const origin of ['*', "'unsafe-eval'", 'javascript:alert(1)', 'file:///', 'http://a b', 'http://u:p@h:1']) {
      const csp = contentSecurityPolicy({ dev: true, devServerOrigin: origin })
      expect(csp).not.toContain('unsafe-eval')
      expect(csp).not.toContain(' * ')
      expect(new Map(cspDirectives({ dev: true, devServerOrigin: origin })).get('connect-src')).toEqual(["'self'"])
    }
  })

  it('never allows eval, remote scripts, plugins or framing', () => {
    for (const dev of [false, true]) {
      const csp = contentSecurityPolicy({ dev, devServerOrigin: 'http://localhost:5173' })
      expect(csp).not.toContain('unsafe-eval')
      expect(csp).not.toMatch(/https?:\/\/(?!localhost:5173)/)
      expect(csp).toContain("object-src 'none'")
      expect(csp).toContain("frame-ancestors 'none'")
    }
  })
})

describe('withCspHeader', () => {
  it('replaces any existing policy whatever its case and keeps other headers', () => {
    const out = withCspHeader(
      { 'content-security-policy': ["default-src *"], 'Content-Type': ['text/html'], 'X-One': 'v' },
      PROD,
    )
    expect(out).toEqual({ 'Content-Type': ['text/html'], 'X-One': ['v'], 'Content-Security-Policy': [PROD] })
  })
  it('works without headers', () => {
    expect(withCspHeader(undefined, PROD)).toEqual({ 'Content-Security-Policy': [PROD] })
  })
})

describe("the renderer's <meta> CSP", () => {
  it('equals the policy the shell and the web host send, less the header-only frame-ancestors', async () => {
    const { readFile } = await import('node:fs/promises')
    const { join } = await import('node:path')
    const { metaContentSecurityPolicy, HEADER_ONLY_DIRECTIVES } = await import('../../src-main/shell/csp')
    const html = await readFile(join(import.meta.dirname, '../../src-renderer/index.html'), 'utf8')
    const meta = /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"/i.exec(html)?.[1]
    expect(meta).toBe(metaContentSecurityPolicy())
    const header = contentSecurityPolicy({ dev: false })
    const withoutHeaderOnly = header
      .split('; ')
      .filter((d) => !HEADER_ONLY_DIRECTIVES.includes(d.split(' ')[0]!))
      .join('; ')
    expect(meta).toBe(withoutHeaderOnly)
    for (const d of ['object-src', 'base-uri', 'form-action']) expect(meta).toContain(`${d} 'none'`)
  })
})
