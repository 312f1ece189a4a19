/**
 * The session's message carries its code (issue 34): what the banner says while a profile waits
 * (offline, a rate limit, a refused key) reads in the person's language, and its English text
 * stays for logs and the headless mode. Real ProfileGates and event emitter; the catalogues of
 * contract/i18n worded as main words them.
 */
import { describe, expect, it } from 'vitest'
import { wordCoded } from '../../contract/i18n/all'
import { TypedEmitter } from '../../src-main/core/events'
import type { EngineEmitter } from '../../src-main/core/events'
import { ProfileGates } from '../../src-main/core/queue/gates'

function gates(): { g: ProfileGates; events: { state: string; message: string | null; code?: string }[] } {
  const emitter: EngineEmitter = new TypedEmitter()
  const events: { state: string; message: string | null; code?: string }[] = []
  emitter.on('profile', (e) => events.push({ state: e.state, message: e.message, ...(e.messageCoded ? { code: e.messageCoded.code } : {}) }))
  const g = new ProfileGates(emitter, () => 1_000, () => undefined, () => undefined)
  return { g, events }
}

describe("the session's message in the person's language", () => {
  it('offline: coded, worded in German and Arabic, its English text kept', () => {
    const { g, events } = gates()
    g.gate('p1')
    g.networkChanged(false)
    const s = g.state('p1')
    expect(s.state).toBe('offline')
    expect(s.message).toMatch(/^This computer is offline/)
    expect(s.messageCoded?.code).toBe('errors.offline')
    expect(events.at(-1)).toMatchObject({ state: 'offline', code: 'errors.offline' })
    expect(wordCoded(s.messageCoded!, 'de')).toBe(
      'Dieser Computer ist offline. Bookdrop sendet die Dateien, sobald das Netzwerk wieder da ist.',
    )
    expect(wordCoded(s.messageCoded!, 'ar')).toMatch(/^هذا الحاسوب غير متصل بالشبكة/)
  })

  it('a rate limit and a refused key are coded; back online clears the code with the message', () => {
    const { g } = gates()
    g.hold('p2', { status: 429, errorCode: 'rate_limited', message: 'slow down', retryable: true, retryAfterMs: 5000 }, 1000)
    expect(g.state('p2').messageCoded?.code).toBe('errors.rate_limited_now')
    g.hold('p3', { status: 401, errorCode: 'invalid_api_key', message: 'no', retryable: false }, 0)
    expect(g.state('p3')).toMatchObject({ state: 'auth_required', messageCoded: { code: 'errors.key_refused' } })
    expect(wordCoded(g.state('p3').messageCoded!, 'fr')).toBe(
      'Le serveur n’accepte plus la clé de ce profil. Collez une nouvelle clé dans les Paramètres.',
    )
    g.gate('p4')
    g.networkChanged(false)
    g.networkChanged(true)
    expect(g.state('p4')).toMatchObject({ state: 'active', message: null, messageCoded: null })
  })
})
